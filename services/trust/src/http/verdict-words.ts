/**
 * @module http/verdict-words
 * The rule's constants the in-browser verifier (client/lib/verifier.ts) needs of the
 * server, carried as a JSON block on the `/verify` page. The verdict's words are
 * the catalogue's (messages/verdict-words.ts), shared by the pages and the verifier.
 */
import { DEMO_ISSUER_ID } from '../issuers/directory.js';
import { KEY_CLOCK_SKEW_MS } from '../issuers/published-keys.js';

export const verifierRules = {
  demoIssuerId: DEMO_ISSUER_ID,
  keyClockSkewMs: KEY_CLOCK_SKEW_MS,
};
