/**
 * @module migrations
 * The orchestration service's schema, in order. Never edit a migration that has shipped; add one.
 */
import type { Migrations } from '@xv/platform';
import { workflowRuns } from './0001_workflow_runs.js';
import { leads } from './0002_leads.js';
import { idempotencyInputHash } from './0003_idempotency_input_hash.js';

export const migrations: Migrations = {
  '0001_workflow_runs': workflowRuns,
  '0002_leads': leads,
  '0003_idempotency_input_hash': idempotencyInputHash,
};
