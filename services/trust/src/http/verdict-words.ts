/**
 * @module http/verdict-words
 * What a verification verdict means, in words a person understands. One table for
 * the server-rendered pages and the in-browser verifier (which reads it, with the
 * rule's constants, from the `/verify` page: `verifierRules`), so both say the same
 * thing; `{issuer}` is the organization the proof names.
 */
import { DEMO_ISSUER_ID } from '../issuers/directory.js';
import { KEY_CLOCK_SKEW_MS } from '../issuers/published-keys.js';

export const VALID_WORDS =
  '✔ Valid: the signatures match and the record is intact. It was signed with a key {issuer} published.';

export const REASON_WORDS: Record<string, string> = {
  tampered: 'The manifest was changed after it was sealed.',
  bad_signature:
    'A signature does not match the key {issuer} published — this proof cannot be shown to come from {issuer}.',
  unknown_issuer: '{issuer} has published no keys here — nothing shows that this proof comes from {issuer}.',
  unknown_issuer_key: 'Signed by a key {issuer} never published — this proof is not from {issuer}.',
  demo_issuer:
    'Signed by the demo issuer, which this site trusts only in demo mode — this is not a proof from a real organization.',
  key_retired:
    '{issuer} had retired the key that signed this before the date the proof claims — it is not valid.',
  key_not_yet_valid:
    'The proof claims no date, or a date before {issuer} created the key that signed it — it is not valid.',
};

/** What the in-browser verifier (client/lib/verifier.ts) needs of the server's rule and words. */
export const verifierRules = {
  demoIssuerId: DEMO_ISSUER_ID,
  keyClockSkewMs: KEY_CLOCK_SKEW_MS,
  validWords: VALID_WORDS,
  reasonWords: REASON_WORDS,
};

/** The verdict line of a page: `✔ Valid: …` or `✘ Not valid: …`. */
export function verdictWords(
  verdict: { valid?: boolean; reason?: string; message?: string; status?: string },
  issuerName: string | null | undefined,
): string {
  const issuer = issuerName || 'the issuer';
  if (verdict.valid) return VALID_WORDS.replaceAll('{issuer}', issuer);
  const words = REASON_WORDS[verdict.reason ?? ''] ?? verdict.message ?? verdict.status ?? 'unknown';
  return `✘ Not valid: ${words.replaceAll('{issuer}', issuer)}`;
}
