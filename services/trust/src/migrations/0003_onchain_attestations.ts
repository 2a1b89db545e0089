import type { ServiceMigration } from '@xv/platform';

/**
 * attestations.onchain: the EAS on-chain attestation made with it (JSON: uid, txHash,
 * blockNumber, attester, chainId, eas), or null for an off-chain attestation alone.
 */
export const onchainAttestations: ServiceMigration = {
  async up(db) {
    await db.schema.alterTable('attestations').addColumn('onchain', 'text').execute();
  },
};
