/**
 * @module http/callers
 * Who is calling, as the seal policy (seal/policy.ts) needs to know: the request's
 * credentials checked by the platform guard, the budget it spends, and where a
 * person steps up when a tier needs more than their sign-in.
 */
import type { Actor } from '@xv/platform';
import { type AuthGuard, bearerToken, isSharedDomainOrigin, type SsoClient } from '@xv/platform/http';
import type { Context } from 'hono';
import type { SignerRequest } from '../seal/policy.js';
import { spend, type TrustRateLimits } from './rate-limits.js';

export interface Callers {
  /** The signer question for a seal (`seal:issue`) or an attestation (`attest:issue`). */
  signerRequest(
    c: Context,
    issuerId: string | undefined,
    scope: 'seal:issue' | 'attest:issue',
  ): SignerRequest;
  /** Whether the request carries credentials at all, and their check for `anchor:write` on `orgId`. */
  anchorCredentials(c: Context, orgId: string): { hasCredentials: boolean; authorize(): Promise<Actor> };
  /** Where the person comes back after stepping up: the page that asked, when it is one of ours. */
  stepUpUrl(c: Context): string;
}

export function createCallers(o: {
  guard: AuthGuard;
  sso: SsoClient;
  limits: TrustRateLimits;
  trustProxy: boolean;
  sharedDomain: string;
  identityUrl: string;
  trustUrl: string;
}): Callers {
  return {
    signerRequest(c, issuerId, scope) {
      const limiter = scope === 'seal:issue' ? o.limits.seal : o.limits.attestation;
      return {
        issuerId,
        hasBearer: bearerToken(c) !== undefined,
        hasSession: async () => Boolean(await o.sso.sessionOf(c)),
        authorize: () => o.guard.authorize(c, { scope, orgId: issuerId }),
        spend: (actor) => spend(limiter, c, actor, o.trustProxy),
      };
    },
    anchorCredentials(c, orgId) {
      return {
        hasCredentials: bearerToken(c) !== undefined || Boolean(c.req.header('cookie')),
        authorize: () => o.guard.authorize(c, { scope: 'anchor:write', orgId }),
      };
    },
    stepUpUrl(c) {
      const referer = c.req.header('referer');
      let back = `${o.trustUrl}/verify`;
      try {
        if (referer && isSharedDomainOrigin(new URL(referer).origin, o.sharedDomain)) back = referer;
      } catch {}
      return `${o.identityUrl}/step-up?aal=AAL3&redirect=${encodeURIComponent(back)}`;
    },
  };
}
