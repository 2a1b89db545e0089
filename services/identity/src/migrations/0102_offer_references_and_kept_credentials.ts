/**
 * Credential offers by reference and credentials a person can read again.
 * - `wallet_offers`: the SHA-256 of the offer's reference (the last part of its
 *   `credential_offer_uri`), the offer document sealed under the key-encryption key
 *   until a wallet fetches it, and when it was fetched (it is served once).
 * - `credentials.sdjwt_sealed`: the SD-JWT issued from the account page, sealed, so the
 *   result page shows it after a redirect instead of issuing again on a reload.
 */
import type { ServiceMigration } from '@xv/platform';

export const offerReferencesAndKeptCredentials: ServiceMigration = {
  async up(db) {
    await db.schema.alterTable('wallet_offers').addColumn('reference_hash', 'text').execute();
    await db.schema.alterTable('wallet_offers').addColumn('offer_document', 'text').execute();
    await db.schema.alterTable('wallet_offers').addColumn('document_served_at', 'bigint').execute();
    await db.schema
      .createIndex('wallet_offers_reference')
      .on('wallet_offers')
      .column('reference_hash')
      .unique()
      .execute();
    await db.schema.alterTable('credentials').addColumn('sdjwt_sealed', 'text').execute();
  },
};
