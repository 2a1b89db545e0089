/**
 * @module credentials/verification/issuer-jwts
 * Issuer-signed JWTs this instance has already parsed and found signed by one of
 * our keys, kept by their exact text. A credential is presented again and again
 * (to one verifier after another, each time with a fresh Key Binding JWT), and its
 * signed part never changes: the same bytes under the same key verify the same
 * way, so the P-256 verification and the parse (a third of a verification's CPU)
 * are paid once per credential, not once per presentation. What depends on the
 * moment or the request is checked every time by the verifier: the Disclosures,
 * the time claims, the status list, the key binding.
 *
 * Only JWTs that passed every check are kept, so a stream of made-up tokens costs
 * what it always did and cannot evict much more than its own share.
 */
import type { PublicJwk } from '../sd-jwt/jws.js';

export interface VerifiedIssuerJwt {
  header: Readonly<Record<string, unknown>>;
  payload: Readonly<Record<string, unknown>>;
  /** The id of the issuer key whose signature was checked, and that key. */
  kid: string;
  publicJwk: PublicJwk;
}

/** Frozen through and through: what the cache hands out is shared by every later request. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

export class VerifiedIssuerJwts {
  private readonly verified = new Map<string, VerifiedIssuerJwt>();

  constructor(private readonly capacity = 4096) {}

  /** The JWT's checked header and payload, when `jwt` (exactly) was verified before under `key`. */
  get(jwt: string, current: (kid: string) => PublicJwk | undefined): VerifiedIssuerJwt | undefined {
    const entry = this.verified.get(jwt);
    if (!entry) return undefined;
    const key = current(entry.kid);
    // A kid is never reused for another key; checked anyway, so a changed key set cannot be bypassed.
    if (!key || key.x !== entry.publicJwk.x || key.y !== entry.publicJwk.y) {
      this.verified.delete(jwt);
      return undefined;
    }
    return entry;
  }

  remember(jwt: string, entry: VerifiedIssuerJwt): void {
    if (this.verified.size >= this.capacity) {
      // Oldest first (a Map keeps insertion order).
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(jwt, deepFreeze(entry));
  }
}
