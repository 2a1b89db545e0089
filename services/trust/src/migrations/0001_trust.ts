import type { ServiceMigration } from '@xv/platform';
import { sql } from 'kysely';

/** Issuer keys (one active per organization, retired ones kept), receipts and attestations. */
export const trust: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('issuer_keys')
      .addColumn('key_id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('did', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('p256_jwk', 'text', (c) => c.notNull())
      .addColumn('p256_private', 'text', (c) => c.notNull())
      .addColumn('secp256k1_private', 'text', (c) => c.notNull())
      .addColumn('eth_address', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('retired_at', 'bigint')
      .execute();
    await db.schema.createIndex('issuer_keys_org').on('issuer_keys').column('org_id').execute();
    // At most one active key per organization: two first seals racing cannot both create one.
    await sql`CREATE UNIQUE INDEX issuer_keys_one_active ON issuer_keys (org_id) WHERE status = 'active'`.execute(
      db,
    );
    await db.schema
      .createTable('receipts')
      .addColumn('receipt_id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('issuer_name', 'text', (c) => c.notNull())
      .addColumn('identity_verified', 'integer', (c) => c.notNull())
      .addColumn('auth_level', 'text', (c) => c.notNull())
      .addColumn('model_id', 'text', (c) => c.notNull())
      .addColumn('tier', 'integer', (c) => c.notNull())
      .addColumn('output_hash', 'text', (c) => c.notNull())
      .addColumn('input_hash', 'text')
      .addColumn('input_json', 'text')
      .addColumn('manifest_hash', 'text', (c) => c.notNull())
      .addColumn('manifest', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('anchor_ref', 'text')
      .addColumn('anchor_tx_hash', 'text')
      .addColumn('anchor_explorer_url', 'text')
      .addColumn('anchor_from', 'text')
      .addColumn('anchor_chain_id', 'bigint')
      .addColumn('anchored_at', 'bigint')
      .execute();
    await db.schema.createIndex('receipts_org').on('receipts').columns(['org_id', 'created_at']).execute();
    await db.schema
      .createTable('attestations')
      .addColumn('attestation_id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('schema', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('digest', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('attester', 'text', (c) => c.notNull())
      .addColumn('signed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
