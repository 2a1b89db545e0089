/**
 * @module public-organizations
 * The public record of an organization as the identity service publishes it
 * (`GET /api/org/resolve?org_id=`), kept for a few seconds so a burst of chat
 * messages or searches costs one call. Services read from it whether an
 * organization exists and whether its admin published a public assistant; a
 * change of that setting takes effect within the cache lifetime.
 */
import { TtlCache } from './auth/ttl-cache.js';
import { platformErrors } from './errors.js';
import { isId } from './ids.js';

export interface PublicOrganization {
  org_id: string;
  name: string;
  slug: string;
  realm: string;
  verified: boolean;
  /** Anonymous visitors may use the organization's assistant and its public documents. */
  public_assistant: boolean;
}

export interface PublicOrganizationsOptions {
  identityUrl: string;
  cacheTtlMs?: number;
  maxEntries?: number;
  timeoutMs?: number;
}

export class PublicOrganizations {
  private readonly cache: TtlCache<PublicOrganization | null>;
  private readonly timeoutMs: number;

  constructor(private readonly options: PublicOrganizationsOptions) {
    this.cache = new TtlCache(options.cacheTtlMs ?? 5000, { maxEntries: options.maxEntries ?? 10_000 });
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  /** The organization's public record, or null when no organization has that id. */
  resolve(orgId: string): Promise<PublicOrganization | null> {
    // Only an id of the organization shape is asked about; anything else names no organization.
    if (!isId(orgId, 'org')) return Promise.resolve(null);
    return this.cache.get(orgId, () => this.fetch(orgId));
  }

  /** True only for an existing organization whose public assistant is on. */
  async hasPublicAssistant(orgId: string): Promise<boolean> {
    return (await this.resolve(orgId))?.public_assistant === true;
  }

  private async fetch(orgId: string): Promise<PublicOrganization | null> {
    let response: Response;
    try {
      response = await fetch(
        `${this.options.identityUrl}/api/org/resolve?org_id=${encodeURIComponent(orgId)}`,
        { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs) },
      );
    } catch {
      throw platformErrors.unavailable('The identity service cannot be reached.');
    }
    if (response.status === 404 || response.status === 400) return null;
    if (!response.ok) throw platformErrors.unavailable('The identity service did not answer.');
    const record = (await response.json()) as PublicOrganization;
    return { ...record, public_assistant: record.public_assistant === true };
  }
}
