/**
 * @module issuers/directory
 * Who an issuer is: the identity service's public organization record (name, DID,
 * KYC status), kept for a short while so a burst of seals costs one look-up. In demo
 * mode one sample organization exists without the identity service.
 */
import { platformErrors } from '@xv/platform';
import { errors } from '../errors.js';

export interface Issuer {
  orgId: string;
  name: string;
  did: string;
  verified: boolean;
}

/** The sample issuer of demo mode (`XV_TRUST_DEMO=1`); its keys are generated like any other. */
export const DEMO_ISSUER_ID = 'org_demo';

const CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

export class IssuerDirectory {
  private readonly cache = new Map<string, { expires: number; issuer: Promise<Issuer | null> }>();
  readonly demoIssuer: Readonly<Issuer>;

  constructor(
    private readonly options: { identityUrl: string; trustUrl: string; demo: boolean; timeoutMs?: number },
  ) {
    const host = new URL(options.trustUrl).host.replace(':', '%3A');
    this.demoIssuer = Object.freeze({
      orgId: DEMO_ISSUER_ID,
      name: 'XV Demo Organization',
      did: `did:web:${host}:demo`,
      verified: false,
    });
  }

  isDemo(orgId: string): boolean {
    return this.options.demo && orgId === DEMO_ISSUER_ID;
  }

  /** The organization's public record, or null when identity does not know it. */
  resolve(orgId: string): Promise<Issuer | null> {
    if (this.isDemo(orgId)) return Promise.resolve(this.demoIssuer);
    const now = Date.now();
    const hit = this.cache.get(orgId);
    if (hit && hit.expires > now) return hit.issuer;
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    const issuer = this.fetchIssuer(orgId);
    this.cache.set(orgId, { expires: now + CACHE_TTL_MS, issuer });
    issuer.catch(() => this.cache.delete(orgId));
    return issuer;
  }

  /** Like `resolve`, but an unknown organization is an error. */
  async require(orgId: string): Promise<Issuer> {
    const issuer = await this.resolve(orgId);
    if (!issuer) throw errors.unknown_issuer();
    return issuer;
  }

  private async fetchIssuer(orgId: string): Promise<Issuer | null> {
    let response: Response;
    try {
      response = await fetch(
        `${this.options.identityUrl}/api/org/resolve?org_id=${encodeURIComponent(orgId)}`,
        {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
        },
      );
    } catch {
      throw errors.identity_unavailable();
    }
    if (response.status === 404 || response.status === 400) return null;
    if (!response.ok)
      throw platformErrors.unavailable('The identity service did not answer the issuer look-up.');
    const record = (await response.json()) as {
      org_id: string;
      name: string;
      org_did: string;
      verified: boolean;
    };
    return {
      orgId: record.org_id,
      name: record.name,
      did: record.org_did,
      verified: record.verified === true,
    };
  }
}
