/**
 * The OpenID Provider: what oidc-provider stores (grants, codes, tokens, sessions, interactions), the signing
 * keys of each realm (private keys sealed with the key-encryption key), the apps organizations register, and
 * the consents people gave them.
 */
import type { ServiceMigration } from '@xv/platform';

export const openidProvider: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('oidc_models')
      .addColumn('realm_id', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('user_code', 'text')
      .addColumn('uid', 'text')
      .addColumn('expires_at', 'bigint')
      .addColumn('consumed_at', 'bigint')
      .addPrimaryKeyConstraint('oidc_models_pk', ['realm_id', 'model', 'id'])
      .execute();
    await db.schema
      .createIndex('oidc_models_grant')
      .on('oidc_models')
      .columns(['realm_id', 'grant_id'])
      .execute();
    await db.schema
      .createIndex('oidc_models_uid')
      .on('oidc_models')
      .columns(['realm_id', 'model', 'uid'])
      .execute();
    await db.schema
      .createIndex('oidc_models_user_code')
      .on('oidc_models')
      .columns(['realm_id', 'model', 'user_code'])
      .execute();
    await db.schema.createIndex('oidc_models_expires').on('oidc_models').column('expires_at').execute();

    await db.schema
      .createTable('oidc_keys')
      .addColumn('kid', 'text', (c) => c.primaryKey())
      .addColumn('realm_id', 'text', (c) => c.notNull().references('realms.id'))
      .addColumn('use', 'text', (c) => c.notNull())
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oidc_keys_realm').on('oidc_keys').columns(['realm_id', 'use']).execute();

    await db.schema
      .createTable('oidc_clients')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('realm_id', 'text', (c) => c.notNull().references('realms.id'))
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('logo_url', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text')
      .addColumn('redirect_uris', 'text', (c) => c.notNull())
      .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('oidc_clients_org')
      .on('oidc_clients')
      .columns(['realm_id', 'org_id'])
      .execute();

    await db.schema
      .createTable('oidc_consents')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('realm_id', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text')
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('oidc_consents_pk', ['user_id', 'client_id'])
      .execute();
  },
};
