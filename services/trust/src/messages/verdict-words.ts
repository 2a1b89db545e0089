/**
 * @module messages/verdict-words
 * What a verification verdict means, in words a person understands, in the reader's
 * language. One wording for the server-rendered pages and the in-browser verifier,
 * so both say the same thing; `{issuer}` is the organization the proof names.
 */
import type { TrustTranslate } from './index.js';

export interface VerdictFacts {
  valid?: boolean;
  reason?: string;
  /** The check's own words, when the catalogue has none for its reason. */
  message?: string;
  status?: string;
}

/** The verdict line: `✔ Valid: …` or `✘ Not valid: …`. */
export function verdictWords(
  t: TrustTranslate,
  verdict: VerdictFacts,
  issuerName: string | null | undefined,
): string {
  const issuer = issuerName || t('verdict.theIssuer');
  if (verdict.valid) return t('verdict.valid', { issuer });
  const key = `verdict.reason.${verdict.reason ?? ''}`;
  const words = t.has(key) ? t(key, { issuer }) : (verdict.message ?? verdict.status ?? 'unknown');
  return t('verdict.notValid', { words });
}

/** An anchor's problem code in words, or the code itself when the catalogue has none. */
export function anchorProblemWords(t: TrustTranslate, problem: string): string {
  const key = `anchor.problem.${problem}`;
  return t.has(key) ? t(key) : problem;
}
