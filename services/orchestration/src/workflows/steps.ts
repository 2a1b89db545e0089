/**
 * @module workflows/steps
 * Running one step of a run: an `ai` step asks a model of its tier, a connector
 * step calls its connector with the rendered parameters. Each try has a timeout;
 * a failed try is retried with exponential backoff unless its error says a retry
 * cannot help. The step's result (ok or failed) is written as it finishes.
 */
import { AppError, type Logger } from '@xv/platform';
import type { TierName } from '../router/tiers.js';
import { type Connectors, StepError } from './connectors/index.js';
import { type RetrySpec, retrySpec, type StepSpec } from './definition.js';
import { LostLease, type RunEnd, type RunStore, type StepRow } from './store.js';
import { render, renderText, type TemplateScope } from './template.js';

/** Answers an `ai` step's prompt with a model of the tier. */
export type AskTier = (
  tier: TierName,
  prompt: string,
  options: { system?: string | undefined; signal: AbortSignal },
) => Promise<string>;

export interface StepView {
  id: string;
  type: string;
  status: string;
  output?: string;
  attempts: number;
  latencyMs: number;
}

/** What a step came to: its output, or why it failed. */
export type StepResult = { ok: true; output: unknown } | { ok: false; message: string };

/** The step's result, how it is shown, and the run's end when the step ended the run. */
export type StepOutcome = StepResult & { view: StepView; end: RunEnd | undefined };

/** The run's end when a step's result ends it (its last step, or a failure), else undefined. */
export type EndsRun = (result: StepResult) => RunEnd | undefined;

const DEFAULT_RETRY: RetrySpec = retrySpec.parse({});

/** The engine is stopping: leave the run as it is for the next start. */
export class Stopped extends Error {
  override name = 'Stopped';
}

export interface StepRunnerOptions {
  store: RunStore;
  connectors: Connectors;
  askTier: AskTier;
  logger: Logger;
  stepTimeoutMs: number;
  /** Aborted when the engine stops: steps in flight are interrupted and their runs handed back. */
  stopping: AbortSignal;
}

export class StepRunner {
  constructor(private readonly options: StepRunnerOptions) {}

  /**
   * Runs the step (tries, timeouts, backoff) and records its outcome; when `endsRun` says the result ends
   * the run, the run's end is recorded in the same commit.
   */
  async run(
    runId: string,
    position: number,
    step: StepSpec,
    scope: TemplateScope,
    previous: StepRow | undefined,
    endsRun: EndsRun,
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
        const end = endsRun({ ok: true, output: outcome.output });
        await this.options.store.finishStep(runId, stepRef, outcome, end);
        return {
          ok: true,
          output: outcome.output,
          view: { ...stepRef, ...outcome, output: outputText(outcome.output) },
          end,
        };
      } catch (error) {
        if (error instanceof LostLease || this.options.stopping.aborted) throw error;
        const retryable = !(error instanceof StepError) || error.retryable;
        message = error instanceof StepError ? error.message : 'The step failed unexpectedly.';
        if (!(error instanceof StepError)) logger.error({ err: error, runId, step: step.id }, 'step error');
        logger.warn({ runId, step: step.id, attempt, retryable, reason: message }, 'workflow step failed');
        if (!retryable || attempt === retry.attempts) break;
        await sleep(backoffMs(retry, attempt), this.options.stopping);
      }
    }
    const outcome = {
      status: 'failed' as const,
      attempts: priorAttempts + tries,
      latencyMs: Math.round(performance.now() - started),
      error: message,
    };
    const end = endsRun({ ok: false, message });
    await this.options.store.finishStep(runId, stepRef, outcome, end);
    return {
      ok: false,
      message,
      end,
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

  /**
   * Runs one try; rejects with a retryable StepError when it takes longer than `ms`. The try's signal is
   * aborted by the timeout or by the engine stopping: one controller fed by both, as `AbortSignal.any`
   * would be, without the cost of building a combined signal for every try.
   */
  private async withTimeout<T>(ms: number, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const { stopping } = this.options;
    const controller = new AbortController();
    if (stopping.aborted) controller.abort(stopping.reason);
    let timer: NodeJS.Timeout | undefined;
    let onStop: (() => void) | undefined;
    const limits = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new StepError(`The step did not finish within ${ms} ms.`, true);
        controller.abort(error);
        reject(error);
      }, ms);
      onStop = () => {
        controller.abort(stopping.reason);
        reject(new Stopped());
      };
      stopping.addEventListener('abort', onStop, { once: true });
    });
    try {
      return await Promise.race([attempt(controller.signal), limits]);
    } finally {
      clearTimeout(timer);
      if (onStop) stopping.removeEventListener('abort', onStop);
    }
  }
}

/** The wait after try number `attempt`: `backoffMs × factor^(attempt−1)`, capped, plus up to 10% jitter. */
export function backoffMs(retry: RetrySpec, attempt: number): number {
  const base = Math.min(retry.maxBackoffMs, retry.backoffMs * retry.factor ** (attempt - 1));
  return Math.round(base + Math.random() * base * 0.1);
}

export function stepViewOf(row: StepRow): StepView {
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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
