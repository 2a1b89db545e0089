/**
 * @module db
 * The shape of the orchestration service's tables, as Kysely sees them.
 * Times are Unix milliseconds; JSON values are text.
 */
import type { Database } from '@xv/platform';

export interface WorkflowRunsTable {
  run_id: string;
  workflow: string;
  /** The caller's idempotency key; unique per workflow. */
  idem_key: string | null;
  /** JSON of the validated input. */
  input: string;
  /** SHA-256 of the input's RFC 8785 form: a reused `idem_key` must come with the same input. */
  input_hash: string | null;
  /** `running`, `done` or `failed`. */
  status: string;
  /** JSON of the workflow's result once done. */
  result: string | null;
  /** JSON `{step, message}` once failed. */
  error: string | null;
  /** The instance executing the run; it renews `lease_until` while it works. */
  owner: string | null;
  lease_until: number;
  created_at: number;
  updated_at: number;
}

export interface WorkflowStepsTable {
  run_id: string;
  step_id: string;
  position: number;
  /** `ai` or `connector`. */
  type: string;
  /** `ok` or `failed`: a row is written when the step finishes. */
  status: string;
  attempts: number;
  /** JSON of the step's output once ok. */
  output: string | null;
  error: string | null;
  latency_ms: number;
  started_at: number;
  finished_at: number | null;
}

export interface LeadsTable {
  lead_id: string;
  /** Lowercased; one lead per address. */
  email: string;
  name: string;
  company: string | null;
  tool: string;
  /** How many times the form was sent for this address. */
  submissions: number;
  created_at: number;
  updated_at: number;
}

export interface UsedChallengesTable {
  /** SHA-256 of the challenge's signature (ALTCHA) or token (Turnstile). */
  id: string;
  expires_at: number;
}

export interface ServiceSecretsTable {
  name: string;
  value: string;
}

export interface Tables {
  wf_runs: WorkflowRunsTable;
  wf_steps: WorkflowStepsTable;
  leads: LeadsTable;
  used_challenges: UsedChallengesTable;
  service_secrets: ServiceSecretsTable;
}

export type OrchestrationDatabase = Database<Tables>;

/** True when `error` is a unique-constraint violation, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
