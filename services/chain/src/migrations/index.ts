/**
 * @module migrations
 * The chain service's schema, in order. Never edit a migration that has shipped; add one.
 */
import type { Migrations } from '@xv/platform';
import { anchors } from './0001_anchors.js';
import { anchorBatches } from './0002_anchor_batches.js';

export const migrations: Migrations = {
  '0001_anchors': anchors,
  '0002_anchor_batches': anchorBatches,
};
