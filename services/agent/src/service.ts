/**
 * @module service
 * The agent service: its settings, migrations and routes.
 */
import { defineService } from '@xv/platform';
import { migrations } from './migrations/index.js';

export const agentService = defineService({
  name: 'agent',
  description: 'AI agents with one stateful object per session, streamed replies and business tools.',
  migrations,
  setup() {},
});
