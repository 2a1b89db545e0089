/**
 * @module service
 * The orchestration service: its settings, migrations and routes.
 */
import { defineService } from '@xv/platform';
import { migrations } from './migrations/index.js';

export const orchestrationService = defineService({
  name: 'orchestration',
  description: 'Model routing with fallback, durable declarative workflows and lead capture.',
  migrations,
  setup() {},
});
