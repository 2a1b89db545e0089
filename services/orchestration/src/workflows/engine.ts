/**
 * @module workflows/engine
 * Running workflows durably. A run is a row; each step's result is written as the
 * step finishes, so a run cut short (a crash, a kill, a deploy) is resumed by the
 * next instance that finds its lease expired, at the first unfinished step, never
 * redoing a finished one. A step is retried with exponential backoff unless its
 * error says a retry cannot help, and each try has a timeout (`steps.ts`); the
 * rows are read and written by `store.ts`.
 *
 * Idempotency: the run row is the claim. A request with an `idemKey` already used
 * for the workflow creates nothing (a unique index on `(workflow, idem_key)`) and
 * waits for the first request's run instead, then answers with it, but only when
 * it carries the same input (the row keeps the input's hash): anyone may send any
 * key, so a key alone must not open someone else's run.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { type Logger, newId } from '@xv/platform';
import type { OrchestrationDatabase } from '../db.js';
import { errors } from '../errors.js';
import type { Connectors } from './connectors/index.js';
import { inputHash } from './input-hash.js';
import type { Workflow, WorkflowRegistry } from './registry.js';
import {
  type AskTier,
  type StepResult,
  StepRunner,
  type StepView,
  Stopped,
  sleep,
  stepViewOf,
} from './steps.js';
import { LostLease, type RunEnd, RunStore, type StepRow } from './store.js';
import { render, type TemplateScope } from './template.js';

export type { AskTier, StepView } from './steps.js';

export interface EngineOptions {
  database: OrchestrationDatabase;
  registry: WorkflowRegistry;
  connectors: Connectors;
  askTier: AskTier;
  logger: Logger;
  stepTimeoutMs: number;
  leaseMs: number;
  /** Longest a duplicate request waits for the first one's run. */
  duplicateWaitMs: number;
  /** Only one instance uses the database (SQLite): at start, every running run is resumed at once. */
  singleInstance: boolean;
}

export type RunStatus = 'running' | 'done' | 'failed';

export interface RunView {
  runId: string;
  workflow: string;
  status: RunStatus;
  steps: StepView[];
  result: unknown;
  error: { step: string; message: string } | null;
}

/** What executing a run needs: its workflow, input and the step results already recorded. */
interface RunToExecute {
  workflow: string;
  input: Record<string, unknown>;
  recorded: Map<string, StepRow>;
}

export class WorkflowEngine {
  readonly instanceId = randomUUID();
  private readonly store: RunStore;
  private readonly steps: StepRunner;
  /** Runs executing in this process; each resolves to the finished run (undefined when interrupted). */
  private readonly active = new Map<string, Promise<RunView | undefined>>();
  private readonly stopping = new AbortController();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly options: EngineOptions) {
    this.store = new RunStore(options.database, this.instanceId, options.leaseMs);
    this.steps = new StepRunner({ ...options, store: this.store, stopping: this.stopping.signal });
    // Every step in flight listens for the stop.
    setMaxListeners(0, this.stopping.signal);
  }

  /**
   * Runs `workflow` (or joins the run already made for `idemKey` with the same input) and resolves when it
   * ends. The same key with another input is refused with 422 `idempotency_key_reused`, saying nothing of
   * the run it names.
   */
  async start(
    workflow: Workflow,
    input: Record<string, unknown>,
    idemKey?: string,
    /**
     * Runs before a new run is made, not when the request joins an existing one (a retry with the same key
     * and input); throws to refuse. For a check that may pass only once, such as a bot challenge.
     */
    admit?: () => Promise<void>,
  ): Promise<RunView> {
    const workflowName = workflow.spec.name;
    const hash = idemKey === undefined ? null : inputHash(input);
    if (admit) {
      const existing = idemKey === undefined ? undefined : await this.store.runForKey(workflowName, idemKey);
      if (existing) return this.join(existing, hash);
      await admit();
    }
    const runId = await this.store.claimNewRun({
      runId: newId('run'),
      workflow: workflowName,
      idemKey: idemKey ?? null,
      inputHash: hash,
      input,
    });
    if (runId) {
      const fresh = { workflow: workflowName, input, recorded: new Map() };
      return (await this.execute(runId, fresh)) ?? (await this.view(runId))!;
    }
    const existing = await this.store.runForKey(workflowName, idemKey!);
    if (!existing) throw new Error('The run of an idempotency key vanished.');
    return this.join(existing, hash);
  }

  /** Answers a request whose key already made a run: with that run only when the input is the same. */
  private join(existing: { run_id: string; input_hash: string | null }, hash: string | null) {
    // A run without a hash (one the migration could not hash) matches no input.
    if (existing.input_hash === null || existing.input_hash !== hash) throw errors.idempotency_key_reused();
    return this.waitFor(existing.run_id);
  }

  async view(runId: string): Promise<RunView | undefined> {
    const run = await this.store.run(runId);
    if (!run) return undefined;
    const steps = await this.store.steps(runId);
    return {
      runId: run.run_id,
      workflow: run.workflow,
      status: run.status as RunStatus,
      steps: steps.map(stepViewOf),
      result: run.result === null ? {} : JSON.parse(run.result),
      error: run.error === null ? null : JSON.parse(run.error),
    };
  }

  /** Resumes abandoned runs now, then every half lease. */
  startResuming(): void {
    const sweep = (evenIfLeased = false) =>
      void this.resumeAbandoned(evenIfLeased).catch((error) =>
        this.options.logger.error({ err: error }, 'resume sweep failed'),
      );
    sweep(this.options.singleInstance);
    this.sweeper = setInterval(() => sweep(), Math.max(250, Math.floor(this.options.leaseMs / 2)));
    this.sweeper.unref();
  }

  async resumeAbandoned(evenIfLeased = false): Promise<string[]> {
    if (this.stopping.signal.aborted) return [];
    const claimed = await this.store.claimAbandoned({ evenIfLeased });
    for (const runId of claimed) {
      this.options.logger.info({ runId }, 'resuming an abandoned workflow run');
      void this.execute(runId);
    }
    return claimed;
  }

  /** Stops taking work, interrupts running steps and hands their runs back for the next start. */
  async stop(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.stopping.abort(new Stopped());
    await Promise.allSettled(this.active.values());
    await this.store.releaseLeases().catch(() => {});
  }

  private async waitFor(runId: string): Promise<RunView> {
    const deadline = Date.now() + this.options.duplicateWaitMs;
    let pause = 20;
    for (;;) {
      const finished = await this.active.get(runId);
      const view = finished ?? (await this.view(runId))!;
      if (view.status !== 'running' || Date.now() >= deadline || this.stopping.signal.aborted) return view;
      await sleep(Math.min(pause, deadline - Date.now()));
      pause = Math.min(pause * 2, 500);
    }
  }

  /** `known`: a run just created here, so nothing needs reading back. */
  private execute(runId: string, known?: RunToExecute): Promise<RunView | undefined> {
    const running = this.active.get(runId);
    if (running) return running;
    const work = this.executeRun(runId, known)
      .catch((error) => {
        // Stopped or lost: the run is resumed later, here or elsewhere, once its lease runs out.
        if (!(error instanceof Stopped || error instanceof LostLease)) {
          this.options.logger.error({ err: error, runId }, 'workflow run interrupted');
        }
        return undefined;
      })
      .finally(() => this.active.delete(runId));
    this.active.set(runId, work);
    return work;
  }

  private async loadRun(runId: string): Promise<RunToExecute | undefined> {
    const run = await this.store.run(runId);
    if (run?.status !== 'running') return undefined;
    const steps = await this.store.steps(runId);
    return {
      workflow: run.workflow,
      input: JSON.parse(run.input),
      recorded: new Map(steps.map((row) => [row.step_id, row])),
    };
  }

  private async executeRun(runId: string, known?: RunToExecute): Promise<RunView | undefined> {
    const run = known ?? (await this.loadRun(runId));
    if (!run) return undefined;
    const steps: StepView[] = [];
    const ended = ({ status, result, error }: RunEnd): RunView => ({
      runId,
      workflow: run.workflow,
      status,
      steps,
      result: result ?? {},
      error: (error as RunView['error'] | undefined) ?? null,
    });
    const end = async (runEnd: RunEnd) => {
      await this.store.finishRun(runId, runEnd);
      return ended(runEnd);
    };
    const workflow = this.options.registry.get(run.workflow);
    if (!workflow) {
      const message = `The workflow "${run.workflow}" is no longer registered.`;
      return end({ status: 'failed', result: undefined, error: { step: '', message } });
    }
    const scope: TemplateScope = { input: run.input, steps: {} };
    const lastPosition = workflow.spec.steps.length - 1;
    // A failed step, or the last one, ends the run in the commit that records it.
    const endsRun = (stepId: string, position: number) => (result: StepResult) => {
      if (!result.ok) return failedAt(stepId, result.message);
      if (position !== lastPosition) return undefined;
      const final = { ...scope, steps: { ...scope.steps, [stepId]: { output: result.output } } };
      return { status: 'done' as const, result: resultOf(workflow, final), error: undefined };
    };
    const heartbeat = setInterval(
      () => void this.store.renewLease(runId).catch(() => {}),
      Math.max(100, Math.floor(this.options.leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      for (const [position, step] of workflow.spec.steps.entries()) {
        const row = run.recorded.get(step.id);
        if (row?.status === 'ok') {
          scope.steps[step.id] = { output: row.output === null ? null : JSON.parse(row.output) };
          steps.push(stepViewOf(row));
          continue;
        }
        const outcome = await this.steps.run(runId, position, step, scope, row, endsRun(step.id, position));
        steps.push(outcome.view);
        if (outcome.end) return ended(outcome.end);
        if (!outcome.ok) return end(failedAt(step.id, outcome.message));
        scope.steps[step.id] = { output: outcome.output };
      }
      // Every step was on record already: a run resumed after its last step, before its end.
      return end({ status: 'done', result: resultOf(workflow, scope), error: undefined });
    } finally {
      clearInterval(heartbeat);
    }
  }
}

function failedAt(step: string, message: string): RunEnd {
  return { status: 'failed', result: undefined, error: { step, message } };
}

/** The workflow's `result` template rendered, or else every step's output by step id. */
function resultOf(workflow: Workflow, scope: TemplateScope): unknown {
  return workflow.spec.result
    ? render(workflow.spec.result, scope)
    : Object.fromEntries(Object.entries(scope.steps).map(([id, s]) => [id, s.output]));
}
