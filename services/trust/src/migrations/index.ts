/**
 * @module migrations
 * The trust service's schema, in order. Never edit a migration that has shipped; add one.
 */
import type { Migrations } from '@xv/platform';
import { trust } from './0001_trust.js';
import { anchorBatches } from './0002_anchor_batches.js';
import { onchainAttestations } from './0003_onchain_attestations.js';

export const migrations: Migrations = {
  '0001_trust': trust,
  '0002_anchor_batches': anchorBatches,
  '0003_onchain_attestations': onchainAttestations,
};
