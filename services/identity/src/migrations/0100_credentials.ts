/**
 * @module migrations/0100_credentials
 * Issuer keys, status lists, credentials, replay guards for key-binding JWTs, and
 * the OpenID4VCI wallet flow (offers, access tokens, nonces).
 */
import type { ServiceMigration } from '@xv/platform';

export const credentials: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('issuer_keys')
      .addColumn('kid', 'text', (c) => c.primaryKey())
      .addColumn('alg', 'text', (c) => c.notNull())
      .addColumn('public_jwk', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('retired_at', 'bigint')
      .execute();

    await db.schema
      .createTable('status_lists')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bits', 'integer', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('allocated', 'integer', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('credentials')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('realm_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('vct', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('org_id', 'text')
      .addColumn('claims', 'text', (c) => c.notNull())
      .addColumn('holder_jkt', 'text')
      .addColumn('status_list_id', 'text', (c) => c.notNull())
      .addColumn('status_idx', 'integer', (c) => c.notNull())
      .addColumn('issued_by', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('iat', 'bigint', (c) => c.notNull())
      .addColumn('exp', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('revoked_by', 'text')
      .execute();
    await db.schema
      .createIndex('credentials_status_slot')
      .on('credentials')
      .columns(['status_list_id', 'status_idx'])
      .unique()
      .execute();
    await db.schema
      .createIndex('credentials_user')
      .on('credentials')
      .columns(['realm_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('credentials_org')
      .on('credentials')
      .columns(['realm_id', 'org_id'])
      .execute();

    await db.schema
      .createTable('kb_presentations')
      .addColumn('jwt_hash', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('wallet_offers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('realm_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text')
      .addColumn('types', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('tx_code_hash', 'text')
      .addColumn('tx_attempts', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('burned', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('wallet_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('offer_id', 'text', (c) => c.notNull())
      .addColumn('realm_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text')
      .addColumn('types', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('wallet_nonces')
      .addColumn('nonce_hash', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
  },
};
