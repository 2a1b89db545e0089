/**
 * Wallet nonces bound to an access token: the SHA-256 of the token a `c_nonce` was
 * issued with (null for one the nonce endpoint gave a wallet that showed no token).
 * Nonces issued before this migration are not bound; they expire within 10 minutes.
 */
import type { ServiceMigration } from '@xv/platform';

export const walletNonceBinding: ServiceMigration = {
  async up(db) {
    await db.schema.alterTable('wallet_nonces').addColumn('token_hash', 'text').execute();
  },
};
