/**
 * @module seal/policy
 * Who may have what sealed, and how:
 * - which sign-in a seal needs: tier 1 any session; tier 2 and above (high-value
 *   records) a phishing-resistant one, AAL3 (a passkey);
 * - who signs (contract.md): a member of the organization (SSO session), or a service
 *   token with the scope bound to it; anonymous callers only in demo mode, as the demo
 *   issuer. A service token is one bearer secret, a single factor: it seals at AAL1, so
 *   tier 2 and above stay with people who stepped up to AAL3;
 * - how `anchorNow` anchors: at once for an organization, batched for the demo issuer
 *   (which signs for anyone, like public anchor requests).
 * The HTTP layer says who is calling (`SignerRequest`); the answers are plain values.
 */
import type { Actor } from '@xv/platform';
import { errors } from '../errors.js';
import type { Issuer, IssuerDirectory } from '../issuers/directory.js';
import type { AnchorMode } from '../receipts/views.js';

export const MAX_TIER = 3;

export function needsStepUp(tier: number, authLevel: string): boolean {
  return tier >= 2 && authLevel !== 'AAL3';
}

/** Who asks for a signature, as far as the caller's credentials tell. */
export interface SignerRequest {
  /** The organization the caller names (`issuerId`), if any. */
  issuerId: string | undefined;
  /** Whether the request carries a bearer token. */
  hasBearer: boolean;
  /** Whether the request carries a signed-in session (asked only when it matters). */
  hasSession(): Promise<boolean>;
  /** The caller's credentials checked for the organization (throws the guard's errors). */
  authorize(): Promise<Actor>;
  /** Spends one signature of the caller's budget: the actor's, or the address's when anonymous. */
  spend(actor: Actor | undefined): Promise<void>;
}

/** The organization a statement is issued for, and the assurance level it was authorised with. */
export interface Signer {
  issuer: Issuer;
  authLevel: string;
}

export class SealPolicy {
  constructor(private readonly o: { directory: IssuerDirectory; demo: boolean }) {}

  /** Who signs a seal or an attestation for this caller. */
  async signer(request: SignerRequest): Promise<Signer> {
    const { directory } = this.o;
    // Each signature spends the caller's budget: the demo issuer's anonymous callers by address.
    const demo = async () => {
      await request.spend(undefined);
      return { issuer: directory.demoIssuer, authLevel: 'AAL1' };
    };
    if (request.issuerId !== undefined && directory.isDemo(request.issuerId)) return demo();
    if (this.o.demo && !request.hasBearer && !(await request.hasSession())) {
      if (request.issuerId !== undefined) throw errors.demo_only();
      return demo();
    }
    const actor = await request.authorize();
    if (!actor.orgId) throw actor.kind === 'user' ? errors.no_organization() : errors.issuer_required();
    await request.spend(actor);
    const authLevel = actor.kind === 'user' ? actor.session.aal : 'AAL1';
    return { issuer: await directory.require(actor.orgId), authLevel };
  }

  /** Refuses a tier the sign-in does not cover; `stepUpUrl` says where to step up. */
  requireAssurance(tier: number, authLevel: string, stepUpUrl: () => string): void {
    if (needsStepUp(tier, authLevel))
      throw errors.stepup_required(undefined, { stepUpUrl: stepUpUrl(), requiredAal: 'AAL3' });
  }

  /** How `anchorNow` anchors a fresh seal: the demo issuer's anchors are batched like public ones. */
  anchorNowMode(issuer: Issuer): AnchorMode {
    return this.o.directory.isDemo(issuer.orgId) ? 'batch' : 'immediate';
  }

  /**
   * Immediate anchoring is a privilege of the receipt's organization: a member's session
   * or a service token with `anchor:write` bound to it. Anyone else (including a caller
   * whose credentials do not cover that organization) is batched: the endpoint stays public.
   */
  async anchorMode(hasCredentials: boolean, authorize: () => Promise<unknown>): Promise<AnchorMode> {
    if (!hasCredentials) return 'batch';
    try {
      await authorize();
      return 'immediate';
    } catch {
      return 'batch';
    }
  }
}
