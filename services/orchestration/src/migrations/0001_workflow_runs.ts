/**
 * Workflow runs and the result of each of their steps.
 */
import type { ServiceMigration } from '@xv/platform';

export const workflowRuns: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('wf_runs')
      .addColumn('run_id', 'text', (c) => c.primaryKey())
      .addColumn('workflow', 'text', (c) => c.notNull())
      .addColumn('idem_key', 'text')
      .addColumn('input', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('owner', 'text')
      .addColumn('lease_until', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // The claim behind idempotency: one run per (workflow, idemKey). NULL keys never collide.
    await db.schema
      .createIndex('wf_runs_workflow_idem_key')
      .unique()
      .on('wf_runs')
      .columns(['workflow', 'idem_key'])
      .execute();
    await db.schema
      .createIndex('wf_runs_status_lease')
      .on('wf_runs')
      .columns(['status', 'lease_until'])
      .execute();

    await db.schema
      .createTable('wf_steps')
      .addColumn('run_id', 'text', (c) => c.notNull().references('wf_runs.run_id'))
      .addColumn('step_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('output', 'text')
      .addColumn('error', 'text')
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .addPrimaryKeyConstraint('wf_steps_pk', ['run_id', 'step_id'])
      .execute();
  },
};
