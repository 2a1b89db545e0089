/**
 * @module auth/guard
 * "An SSO session, or a service token with scope X for that organization": the one
 * check every endpoint that serves both people and machines makes.
 *
 * A request with `Authorization: Bearer <token>` is a machine: the token must name
 * a live service client of the identity service that carries the scope and covers
 * the organization (its own, or every organization of its realm). Any other
 * request must carry a valid `xv_session` and the user must belong to the
 * organization (and hold `permission`, when one is asked for).
 *
 * Other services check tokens by calling identity's `GET /api/service-clients/me`
 * (answers kept a few seconds, keyed by the token's hash, and dropped as soon as the
 * revocation watch reports a change); identity itself plugs in verifiers that read
 * its database.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Actor, IdentitySession, ServiceClientInfo } from '../auth/principals.js';
import type { RevocationWatch } from '../auth/revocations.js';
import { TtlCache } from '../auth/ttl-cache.js';
import { sha256Hex } from '../crypto.js';
import { guardErrors, platformErrors } from '../errors.js';
import { activeMembership } from './sso.js';

export interface ServiceClientVerifier {
  /** The live client holding `token`, or null. */
  verify(token: string): Promise<ServiceClientInfo | null>;
}

export interface OrganizationDirectory {
  /** The realm an organization belongs to, or null when it does not exist. */
  realmOf(orgId: string): Promise<string | null>;
}

export interface SessionSource {
  sessionOf(c: Context): Promise<IdentitySession | null>;
  /** The process's revocation watch, when the source has one: the guard's token cache follows it too. */
  readonly revocations?: RevocationWatch | undefined;
}

export interface AuthorizeOptions {
  /** The scope a service token must carry. */
  scope: string;
  /** The organization acted on; absent: the user's active organization, or any for a token. */
  orgId?: string | undefined;
  /** A permission the user's membership must hold (e.g. `review:decide`). */
  permission?: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The bearer token of a request: undefined without an Authorization header, null when it is not a bearer one. */
export function bearerToken(c: Context): string | null | undefined {
  const header = c.req.header('authorization');
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1] ?? null;
}

export class AuthGuard {
  constructor(
    private readonly sessions: SessionSource,
    private readonly serviceClients: ServiceClientVerifier,
    private readonly organizations: OrganizationDirectory,
  ) {}

  /** Who is calling, checked against `options`; throws 401 or 403 otherwise. */
  async authorize(c: Context, options: AuthorizeOptions): Promise<Actor> {
    const token = bearerToken(c);
    if (token !== undefined) return this.authorizeService(token, options);
    const session = await this.sessions.sessionOf(c);
    if (!session) throw platformErrors.unauthenticated();
    const membership = options.orgId
      ? session.memberships.find((m) => m.org_id === options.orgId)
      : activeMembership(session, c);
    if (options.orgId && !membership) throw guardErrors.not_a_member();
    if (options.permission && !membership?.permissions.includes(options.permission))
      throw guardErrors.missing_permission();
    return { kind: 'user', session, membership, orgId: membership?.org_id, realmId: session.realmId };
  }

  /** Middleware form: puts the caller in `c.var.actor`. `orgId` may read the path or query. */
  require(
    options: Omit<AuthorizeOptions, 'orgId'> & { orgId?: (c: Context) => string | undefined },
  ): MiddlewareHandler<{ Variables: { actor: Actor } }> {
    return async (c, next) => {
      const { orgId, ...rest } = options;
      c.set('actor', await this.authorize(c, { ...rest, orgId: orgId?.(c) }));
      return next();
    };
  }

  private async authorizeService(token: string | null, options: AuthorizeOptions): Promise<Actor> {
    const client = token ? await this.serviceClients.verify(token) : null;
    if (!client) throw guardErrors.invalid_token();
    if (!client.scopes.includes(options.scope)) throw guardErrors.insufficient_scope();
    const orgId = options.orgId ?? client.org_id ?? undefined;
    if (options.orgId) {
      if (client.org_id !== null && client.org_id !== options.orgId) throw guardErrors.wrong_organization();
      if (client.org_id === null && (await this.organizations.realmOf(options.orgId)) !== client.realm_id)
        throw guardErrors.wrong_organization();
    }
    return { kind: 'service', client, orgId, realmId: client.realm_id };
  }
}

export interface IdentityDirectoryOptions {
  identityUrl: string;
  /** How long a live token's answer is reused; a revocation reported by the watch drops it at once. */
  tokenCacheTtlMs?: number;
  timeoutMs?: number;
  revocations?: RevocationWatch | undefined;
}

/** Service tokens and organizations, as the identity service answers for them over HTTP. */
export class IdentityDirectory implements ServiceClientVerifier, OrganizationDirectory {
  private readonly tokens: TtlCache<ServiceClientInfo | null>;
  // An organization never changes realm: its answer can be kept longer.
  private readonly realms = new TtlCache<string | null>(60_000);
  private readonly timeoutMs: number;

  constructor(private readonly options: IdentityDirectoryOptions) {
    this.tokens = new TtlCache(options.tokenCacheTtlMs ?? 5000, { revocations: options.revocations });
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  verify(token: string): Promise<ServiceClientInfo | null> {
    return this.tokens.get(sha256Hex(token), async () => {
      const response = await this.call('/api/service-clients/me', { authorization: `Bearer ${token}` });
      if (response.status === 401) return null;
      if (!response.ok)
        throw platformErrors.unavailable('The identity service did not answer the token check.');
      return (await response.json()) as ServiceClientInfo;
    });
  }

  realmOf(orgId: string): Promise<string | null> {
    return this.realms.get(orgId, async () => {
      const response = await this.call(`/api/org/resolve?org_id=${encodeURIComponent(orgId)}`, {});
      if (response.status === 404 || response.status === 400) return null;
      if (!response.ok) throw platformErrors.unavailable('The identity service did not answer.');
      return ((await response.json()) as { realm: string }).realm;
    });
  }

  private async call(path: string, headers: Record<string, string>): Promise<Response> {
    try {
      return await fetch(`${this.options.identityUrl}${path}`, {
        headers: { accept: 'application/json', ...headers },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw platformErrors.unavailable('The identity service cannot be reached.');
    }
  }
}

/**
 * The guard for a service other than identity: sessions through `sso`, tokens and
 * organizations over HTTP. Its token cache follows the revocation watch of `sso`
 * (the process's one), unless another is given.
 */
export function createAuthGuard(options: {
  sso: SessionSource;
  identityUrl: string;
  tokenCacheTtlMs?: number;
  revocations?: RevocationWatch;
}) {
  const directory = new IdentityDirectory({
    ...options,
    revocations: options.revocations ?? options.sso.revocations,
  });
  return new AuthGuard(options.sso, directory, directory);
}
