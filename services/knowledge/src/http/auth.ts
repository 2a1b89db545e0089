/**
 * @module http/auth
 * Resolving the caller of a request: a personal access token in
 * `Authorization: Bearer xkb_…` (or an access token of XV's OpenID Provider for this
 * knowledge base, tokens/oauth.ts) with the scope the endpoint needs, or the SSO
 * session (`xv_session`, checked with the identity service) in its active
 * organization. Failed token attempts are rate-limited per client address.
 */

import {
  consumeOrReject,
  guardErrors,
  isLimited,
  platformErrors,
  type RateLimiter,
  tooManyRequests,
} from '@xv/platform';
import { activeMembership, clientIp, type SsoClient } from '@xv/platform/http';
import { type Viewer, viewerOf } from '@xv/platform/pages';
import type { Context } from 'hono';
import { type Caller, hasScope, requireReviewer, type Scope } from '../access/caller.js';
import { type OAuthResource, OAuthTokens } from '../tokens/oauth.js';
import type { TokenStore } from '../tokens/tokens.js';

export interface AuthOptions {
  tokens: TokenStore;
  /** Access tokens of XV's OpenID Provider for this knowledge base, accepted besides personal access tokens. */
  oauth?: OAuthTokens;
  sso: SsoClient;
  failedTokenLimiter: RateLimiter;
  trustProxy: boolean;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export class Authenticator {
  constructor(private readonly options: AuthOptions) {}

  /** The bearer credential, if the request carries one. */
  bearer(c: Context): string | undefined {
    const header = c.req.header('authorization');
    if (!header) return undefined;
    const match = BEARER.exec(header);
    if (!match) throw platformErrors.unauthenticated('The Authorization header must be `Bearer <token>`.');
    return match[1];
  }

  /**
   * A caller with a token holding `scope`; 401 without a valid token, 403 without the scope. An OAuth token
   * must be bound to `resource`: the API (the knowledge base's URL) or the MCP endpoint.
   */
  async token(c: Context, scope: Scope, resource: OAuthResource = 'api'): Promise<Caller> {
    const token = this.bearer(c);
    if (!token)
      throw platformErrors.unauthenticated('Send a personal access token as `Authorization: Bearer xkb_…`.');
    const key = clientIp(c, this.options.trustProxy);
    const limited = await isLimited(this.options.failedTokenLimiter, key);
    if (limited) throw tooManyRequests(limited);
    const caller =
      (await this.options.tokens.authenticate(token)) ??
      (OAuthTokens.looksLikeJwt(token) ? await this.options.oauth?.authenticate(token, resource) : undefined);
    if (!caller) {
      await consumeOrReject(this.options.failedTokenLimiter, key);
      throw guardErrors.invalid_token('The access token is unknown or revoked.');
    }
    if (!hasScope(caller, scope))
      throw guardErrors.insufficient_scope(`The access token lacks the \`${scope}\` scope.`);
    return caller;
  }

  /** The signed-in user in their active organization, or undefined without a session. */
  async sessionCaller(c: Context): Promise<Caller | undefined> {
    const session = await this.options.sso.sessionOf(c);
    if (!session) return undefined;
    const membership = activeMembership(session, c);
    if (!membership) throw guardErrors.not_a_member('You are not a member of any organization.');
    return {
      userId: session.user.id,
      email: session.user.email,
      orgId: membership.org_id,
      via: 'session',
      scopes: [],
      permissions: membership.permissions ?? [],
    };
  }

  /** Who the page header shows as signed in (the SSO answer is cached, so this costs no extra call). */
  async viewer(c: Context): Promise<Viewer | undefined> {
    const session = await this.options.sso.sessionOf(c);
    return session ? viewerOf(session, c) : undefined;
  }

  async session(c: Context): Promise<Caller> {
    const caller = await this.sessionCaller(c);
    if (!caller) throw platformErrors.unauthenticated('Sign in through the identity service first.');
    return caller;
  }

  /** A signed-in user holding `review:decide` in the active organization. */
  async reviewer(c: Context): Promise<Caller> {
    const caller = await this.session(c);
    requireReviewer(caller);
    return caller;
  }

  /** A token with `scope` when the request carries one, else the SSO session. */
  async tokenOrSession(c: Context, scope: Scope): Promise<Caller> {
    return c.req.header('authorization') ? this.token(c, scope) : this.session(c);
  }
}
