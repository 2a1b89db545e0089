/**
 * @module leads/challenge
 * The optional bot challenge of the lead form: self-hosted ALTCHA (proof of work,
 * `altcha-lib` 2) or Cloudflare Turnstile (siteverify). A solved challenge counts
 * once: its signature (or token) is recorded until it expires, and a second use is
 * refused with `challenge_reused`.
 */
import { hashToken } from '@xv/platform';
import { type Challenge, createChallenge, randomInt, type Solution, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { OrchestrationDatabase } from '../db.js';
import { isUniqueViolation } from '../db.js';
import { errors } from '../errors.js';

export type ChallengeKind = 'off' | 'altcha' | 'turnstile';

export interface BotChallenge {
  kind: ChallengeKind;
  /** Where a client sends its answer: `altcha` or `cf-turnstile-response` (the widgets' own names). */
  answerField?: 'altcha' | 'cf-turnstile-response';
  /** A new ALTCHA challenge for the browser to solve (ALTCHA only). */
  issue(): Promise<Challenge>;
  /** Throws a 400 (or 503) unless `answer` is a fresh, valid solution. */
  check(answer: string | undefined, clientIp: string): Promise<void>;
}

/** Records a solved challenge; a second record of the same one is a replay. */
async function spend(database: OrchestrationDatabase, secret: string, expiresAt: number): Promise<void> {
  const now = Date.now();
  await database.kysely.deleteFrom('used_challenges').where('expires_at', '<', now).execute();
  try {
    await database.kysely
      .insertInto('used_challenges')
      .values({ id: hashToken(secret), expires_at: expiresAt })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.challenge_reused();
    throw error;
  }
}

export function noChallenge(): BotChallenge {
  return {
    kind: 'off',
    issue: async () => {
      throw errors.challenge_unavailable('The bot challenge is not enabled.');
    },
    check: async () => {},
  };
}

export interface AltchaOptions {
  hmacKey: string;
  /** The solver tries on average half this many hashes. */
  maxNumber: number;
  expireSeconds: number;
}

export function altchaChallenge(database: OrchestrationDatabase, options: AltchaOptions): BotChallenge {
  const keySecret = `${options.hmacKey}:derived-key`;
  return {
    kind: 'altcha',
    answerField: 'altcha',
    issue: () =>
      createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: randomInt(options.maxNumber),
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) + options.expireSeconds,
        hmacSignatureSecret: options.hmacKey,
        hmacKeySignatureSecret: keySecret,
      }),
    async check(answer) {
      if (!answer) throw errors.challenge_required();
      const payload = decodeAltchaPayload(answer);
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: options.hmacKey,
        hmacKeySignatureSecret: keySecret,
      }).catch(() => null);
      if (!result?.verified || !payload.challenge.signature) throw errors.challenge_failed();
      const expiresAt = (payload.challenge.parameters.expiresAt ?? 0) * 1000;
      await spend(database, `altcha:${payload.challenge.signature}`, expiresAt);
    },
  };
}

/** The widget's payload: base64 of `{challenge, solution}` JSON. */
function decodeAltchaPayload(answer: string): { challenge: Challenge; solution: Solution } {
  try {
    if (answer.length > 8192) throw new Error('too long');
    const value = JSON.parse(Buffer.from(answer, 'base64').toString('utf8'));
    const { challenge, solution } = value ?? {};
    if (typeof challenge?.parameters !== 'object' || typeof solution !== 'object' || solution === null)
      throw new Error('shape');
    return { challenge, solution };
  } catch {
    throw errors.challenge_failed();
  }
}

export interface TurnstileOptions {
  secretKey: string;
  verifyUrl: string;
}

/** A Turnstile token lives 300 s at most; it is remembered a little longer. */
const TURNSTILE_TOKEN_MS = 310_000;

export function turnstileChallenge(database: OrchestrationDatabase, options: TurnstileOptions): BotChallenge {
  return {
    kind: 'turnstile',
    answerField: 'cf-turnstile-response',
    issue: async () => {
      throw errors.challenge_unavailable('Turnstile challenges are issued by the Turnstile widget.');
    },
    async check(answer, clientIp) {
      if (!answer) throw errors.challenge_required();
      if (answer.length > 2048) throw errors.challenge_failed();
      let outcome: { success?: boolean; 'error-codes'?: string[] };
      try {
        const response = await fetch(options.verifyUrl, {
          method: 'POST',
          body: new URLSearchParams({ secret: options.secretKey, response: answer, remoteip: clientIp }),
          signal: AbortSignal.timeout(10_000),
        });
        outcome = (await response.json()) as typeof outcome;
      } catch {
        throw errors.challenge_unavailable();
      }
      if (!outcome.success) {
        if (outcome['error-codes']?.includes('timeout-or-duplicate')) throw errors.challenge_reused();
        throw errors.challenge_failed();
      }
      // Cloudflare refuses a token twice too; recording it also covers a siteverify retry window.
      await spend(database, `turnstile:${answer}`, Date.now() + TURNSTILE_TOKEN_MS);
    },
  };
}
