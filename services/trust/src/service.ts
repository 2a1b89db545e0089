/**
 * @module service
 * The trust service: its settings, migrations and routes.
 */
import { defineService } from '@xv/platform';
import { migrations } from './migrations/index.js';

export const trustService = defineService({
  name: 'trust',
  description:
    'Trust sealing: signed manifests, receipts, anchoring, attestations and independent verification.',
  migrations,
  setup() {},
});
