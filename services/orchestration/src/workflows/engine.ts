/**
 * @module workflows/engine
 * Running workflows durably. A run is a row; each step's result is written as the
 * step finishes, so a run cut short (a crash, a kill, a deploy) is resumed by the
 * next instance that finds its lease expired, at the first unfinished step, never
 * redoing a finished one. A step is retried with exponential backoff unless its
 * error says a retry cannot help, and each try has a timeout.
 *
 * Idempotency: the run row is the claim. A request with an `idemKey` already used
 * for the workflow creates nothing (a unique index on `(workflow, idem_key)`) and
 * waits for the first request's run instead, then answers with it, but only when
 * it carries the same input (the row keeps the input's hash): anyone may send any
 * key, so a key alone must not open someone else's run.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { AppError, type Logger, newId } from '@xv/platform';
import type { OrchestrationDatabase } from '../db.js';
import { errors } from '../errors.js';
import type { TierName } from '../router/tiers.js';
import { type Connectors, StepError } from './connectors/index.js';
import { type RetrySpec, retrySpec, type StepSpec } from './definition.js';
import { inputHash } from './input-hash.js';
import type { Workflow, WorkflowRegistry } from './registry.js';
import { LostLease, RunStore, type StepRow } from './store.js';
import { render, renderText, type TemplateScope } from './template.js';

/** Answers an `ai` step's prompt with a model of the tier. */
export type AskTier = (
  tier: TierName,
  prompt: string,
  options: { system?: string | undefined; signal: AbortSignal },
) => Promise<string>;

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

export interface StepView {
  id: string;
  type: string;
  status: string;
  output?: string;
  attempts: number;
  latencyMs: number;
}

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

type StepOutcome =
  | { ok: true; output: unknown; view: StepView }
  | { ok: false; message: string; view: StepView };

const DEFAULT_RETRY: RetrySpec = retrySpec.parse({});

/** The engine is stopping: leave the run as it is for the next start. */
class Stopped extends Error {
  override name = 'Stopped';
}

export class WorkflowEngine {
  readonly instanceId = randomUUID();
  private readonly store: RunStore;
  /** Runs executing in this process; each resolves to the finished run (undefined when interrupted). */
  private readonly active = new Map<string, Promise<RunView | undefined>>();
  private readonly stopping = new AbortController();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly options: EngineOptions) {
    this.store = new RunStore(options.database, this.instanceId, options.leaseMs);
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
    const end = async (status: 'done' | 'failed', result: unknown, error?: RunView['error']) => {
      await this.store.finishRun(runId, status, result, error ?? undefined);
      return { runId, workflow: run.workflow, status, steps, result: result ?? {}, error: error ?? null };
    };
    const workflow = this.options.registry.get(run.workflow);
    if (!workflow) {
      return end('failed', undefined, {
        step: '',
        message: `The workflow "${run.workflow}" is no longer registered.`,
      });
    }
    const scope: TemplateScope = { input: run.input, steps: {} };
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
        const outcome = await this.runStep(runId, position, step, scope, row);
        steps.push(outcome.view);
        if (!outcome.ok) return end('failed', undefined, { step: step.id, message: outcome.message });
        scope.steps[step.id] = { output: outcome.output };
      }
      const result = workflow.spec.result
        ? render(workflow.spec.result, scope)
        : Object.fromEntries(Object.entries(scope.steps).map(([id, s]) => [id, s.output]));
      return end('done', result);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async runStep(
    runId: string,
    position: number,
    step: StepSpec,
    scope: TemplateScope,
    previous: StepRow | undefined,
  ): Promise<StepOutcome> {
    const { logger, stepTimeoutMs } = this.options;
    const retry = step.retry ?? DEFAULT_RETRY;
    const priorAttempts = Number(previous?.attempts ?? 0);
    const stepRef = { id: step.id, position, type: step.type };
    const started = performance.now();
    let message = 'The step failed.';
    let tries = 0;
    for (let attempt = 1; attempt <= retry.attempts; attempt += 1) {
      tries = attempt;
      try {
        const output = await this.withTimeout(step.timeoutMs ?? stepTimeoutMs, (signal) =>
          this.perform(step, scope, { signal, runId, stepId: step.id, attempt }),
        );
        const outcome = {
          status: 'ok' as const,
          attempts: priorAttempts + attempt,
          latencyMs: Math.round(performance.now() - started),
          output: output ?? null,
        };
        await this.store.finishStep(runId, stepRef, outcome);
        return {
          ok: true,
          output: outcome.output,
          view: { ...stepRef, ...outcome, output: outputText(outcome.output) },
        };
      } catch (error) {
        if (error instanceof LostLease || this.stopping.signal.aborted) throw error;
        const retryable = !(error instanceof StepError) || error.retryable;
        message = error instanceof StepError ? error.message : 'The step failed unexpectedly.';
        if (!(error instanceof StepError)) logger.error({ err: error, runId, step: step.id }, 'step error');
        logger.warn({ runId, step: step.id, attempt, retryable, reason: message }, 'workflow step failed');
        if (!retryable || attempt === retry.attempts) break;
        await sleep(backoffMs(retry, attempt), this.stopping.signal);
      }
    }
    const outcome = {
      status: 'failed' as const,
      attempts: priorAttempts + tries,
      latencyMs: Math.round(performance.now() - started),
      error: message,
    };
    await this.store.finishStep(runId, stepRef, outcome);
    return {
      ok: false,
      message,
      view: {
        id: step.id,
        type: step.type,
        status: 'failed',
        attempts: outcome.attempts,
        latencyMs: outcome.latencyMs,
      },
    };
  }

  private async perform(
    step: StepSpec,
    scope: TemplateScope,
    context: { signal: AbortSignal; runId: string; stepId: string; attempt: number },
  ): Promise<unknown> {
    if (step.type === 'ai') {
      const prompt = renderText(step.prompt, scope);
      const system = step.system === undefined ? undefined : renderText(step.system, scope);
      try {
        return await this.options.askTier(step.tier, prompt, { system, signal: context.signal });
      } catch (error) {
        if (error instanceof AppError) throw new StepError(error.message, error.status !== 503);
        throw error;
      }
    }
    const connector = this.options.connectors.get(step.connector)!;
    const parsed = connector.params.safeParse(render(step.with, scope));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new StepError(
        `The ${step.connector} parameter "${issue.path.join('.') || '(all)'}" is not valid: ${issue.message}`,
        false,
      );
    }
    return connector.run(parsed.data, context);
  }

  /** Runs one try; rejects with a retryable StepError when it takes longer than `ms`. */
  private async withTimeout<T>(ms: number, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, this.stopping.signal]);
    let timer: NodeJS.Timeout | undefined;
    let onStop: (() => void) | undefined;
    const limits = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new StepError(`The step did not finish within ${ms} ms.`, true);
        controller.abort(error);
        reject(error);
      }, ms);
      onStop = () => reject(new Stopped());
      this.stopping.signal.addEventListener('abort', onStop, { once: true });
    });
    try {
      return await Promise.race([attempt(signal), limits]);
    } finally {
      clearTimeout(timer);
      if (onStop) this.stopping.signal.removeEventListener('abort', onStop);
    }
  }
}

/** The wait after try number `attempt`: `backoffMs × factor^(attempt−1)`, capped, plus up to 10% jitter. */
export function backoffMs(retry: RetrySpec, attempt: number): number {
  const base = Math.min(retry.maxBackoffMs, retry.backoffMs * retry.factor ** (attempt - 1));
  return Math.round(base + Math.random() * base * 0.1);
}

function stepViewOf(row: StepRow): StepView {
  return {
    id: row.step_id,
    type: row.type,
    status: row.status,
    ...(row.output !== null ? { output: outputText(JSON.parse(row.output)) } : {}),
    attempts: Number(row.attempts),
    latencyMs: Number(row.latency_ms),
  };
}

function outputText(output: unknown): string | undefined {
  if (output === null || output === undefined) return undefined;
  return typeof output === 'string' ? output : JSON.stringify(output);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Stopped());
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      signal?.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(new Stopped());
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}
