/**
 * @module router/router
 * Routing a prompt to a tier: its models are tried in order, each with its own
 * timeout; an error or a timeout moves on to the next, a cooled-down model is
 * skipped. Every attempt is reported as a hop.
 */
import { AppError } from '@xv/platform';
import { errors } from '../errors.js';
import type { ModelCooldown } from './cooldown.js';
import type { TierName, Tiers } from './tiers.js';

/** Asks one model (a `<provider>:<model id>` reference) for an answer; rejects on any failure. */
export type AskModel = (
  model: string,
  prompt: string,
  options: { system?: string | undefined; signal: AbortSignal; timeoutMs: number },
) => Promise<string>;

export interface Hop {
  model: string;
  status: 'ok' | 'error';
  latencyMs?: number;
  /** Why the attempt failed: `timeout`, `http_<status>`, `network`, `empty_answer`, `not_configured`, … */
  reason?: string;
  /** Set when the model was not called because it is cooling down. */
  skipped?: 'cooldown';
}

export interface RouteResult {
  ok: true;
  label: string;
  model: string;
  /** The whole routing time, every hop included. */
  latencyMs: number;
  answer: string;
  hops: Hop[];
}

export interface RouterOptions {
  tiers: Tiers;
  ask: AskModel;
  cooldown: ModelCooldown;
  modelTimeoutMs: number;
}

/** A failure's short, safe reason for the hop list. */
export type DescribeFailure = (error: unknown) => string;

export const PROMPT_MAX_CHARACTERS = 600;

/** A prompt the router may answer: 400 `empty_prompt` or `prompt_too_long` otherwise. */
export function checkPrompt(prompt: string | undefined): string {
  if (!prompt?.trim()) throw errors.empty_prompt();
  if ([...prompt].length > PROMPT_MAX_CHARACTERS) throw errors.prompt_too_long();
  return prompt;
}

export class ModelRouter {
  constructor(
    private readonly options: RouterOptions,
    private readonly describeFailure: DescribeFailure,
  ) {}

  get tiers(): Tiers {
    return this.options.tiers;
  }

  async route(
    tierName: TierName,
    prompt: string,
    { system, signal }: { system?: string; signal?: AbortSignal } = {},
  ): Promise<RouteResult> {
    const { tiers, ask, cooldown, modelTimeoutMs } = this.options;
    const tier = tiers[tierName];
    if (tier.models.length === 0) {
      throw errors.ai_unavailable(
        `No model is configured for the ${tierName} tier: set XV_ROUTER_TIERS or MODEL_NAME.`,
      );
    }
    const started = performance.now();
    const hops: Hop[] = [];
    let unconfigured = 0;
    for (const model of tier.models) {
      if (cooldown.isCooling(model)) {
        hops.push({ model, status: 'error', skipped: 'cooldown' });
        continue;
      }
      const attemptStarted = performance.now();
      try {
        const answer = await ask(model, prompt, {
          system,
          signal: signal ?? new AbortController().signal,
          timeoutMs: modelTimeoutMs,
        });
        if (!answer.trim()) throw new EmptyAnswer();
        cooldown.recordSuccess(model);
        hops.push({ model, status: 'ok', latencyMs: elapsed(attemptStarted) });
        return { ok: true, label: tier.label, model, latencyMs: elapsed(started), answer, hops };
      } catch (error) {
        if (signal?.aborted) throw error;
        const notConfigured = error instanceof AppError && error.code === 'ai_unavailable';
        if (notConfigured) unconfigured += 1;
        else cooldown.recordFailure(model);
        hops.push({
          model,
          status: 'error',
          latencyMs: elapsed(attemptStarted),
          reason: notConfigured
            ? 'not_configured'
            : error instanceof EmptyAnswer
              ? 'empty_answer'
              : this.describeFailure(error),
        });
      }
    }
    if (unconfigured === tier.models.length) {
      throw errors.ai_unavailable(`None of the ${tierName} tier's models has its provider configured.`, {
        hops,
      });
    }
    throw errors.all_failed(undefined, { label: tier.label, hops });
  }
}

class EmptyAnswer extends Error {}

const elapsed = (since: number) => Math.round(performance.now() - since);
