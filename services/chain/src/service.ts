/**
 * @module service
 * The chain service: its settings, migrations and routes.
 */
import { defineService } from '@xv/platform';
import { migrations } from './migrations/index.js';

export const chainService = defineService({
  name: 'chain',
  description:
    'Chain relayer: the only holder of the on-chain key; anchors 32-byte fingerprints on an EVM chain.',
  migrations,
  setup() {},
});
