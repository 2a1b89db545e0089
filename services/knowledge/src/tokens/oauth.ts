/**
 * @module tokens/oauth
 * Access tokens from XV's OpenID Provider (the desktop client's device sign-in, MCP clients): RS256 JWTs of
 * type `at+jwt` issued by `{identity}/oidc/{realm}` for this knowledge base (`aud` = its public URL, or its
 * `/mcp` endpoint as MCP clients name it; each is taken only where it was bound to), checked
 * against that realm's JWKS. Such a token acts like a personal access token: as its person (`sub`, `email`)
 * in the organization it names (`org_id`), with its scopes, and only while that membership stands.
 */
import type { MembershipSource } from '@xv/platform';
import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import type { Caller } from '../access/caller.js';

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const REALM = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const MAX_LENGTH = 8192;

/** Where a token is presented: the knowledge base's API (`aud` = its URL) or its MCP endpoint (`{url}/mcp`). */
export type OAuthResource = 'api' | 'mcp';

export interface OAuthTokenOptions {
  /** The identity service's public URL: issuers are `{identityUrl}/oidc/{realm}`. */
  identityUrl: string;
  /** This knowledge base's public URL: a token must name it, or its MCP endpoint, as audience. */
  audience: string;
  memberships: MembershipSource;
}

export class OAuthTokens {
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(private readonly options: OAuthTokenOptions) {}

  /** Whether `token` has the shape of a JWT (and so is no personal access token). */
  static looksLikeJwt(token: string): boolean {
    return token.length <= MAX_LENGTH && JWT_SHAPE.test(token);
  }

  /** The caller of a valid token bound to `resource` of this knowledge base, or undefined. */
  async authenticate(token: string, resource: OAuthResource): Promise<Caller | undefined> {
    if (!OAuthTokens.looksLikeJwt(token)) return undefined;
    const issuer = this.issuerOf(token);
    if (!issuer) return undefined;
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.keySetOf(issuer), {
        issuer,
        audience: resource === 'mcp' ? `${this.options.audience}/mcp` : this.options.audience,
        typ: 'at+jwt',
        algorithms: ['RS256'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
    const { sub, email, org_id: orgId, scope } = payload;
    if (typeof sub !== 'string' || typeof orgId !== 'string' || typeof scope !== 'string') return undefined;
    const standing = await this.options.memberships.membershipOf(sub, orgId);
    if (!standing.member || !standing.active) return undefined;
    return {
      userId: sub,
      email: typeof email === 'string' ? email : '',
      orgId,
      via: 'token',
      scopes: scope.split(' ').filter(Boolean),
      permissions: [],
    };
  }

  /** The token's issuer when it is a realm of XV's identity service, else null (no key is fetched for it). */
  private issuerOf(token: string): string | null {
    let iss: unknown;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      return null;
    }
    const prefix = `${this.options.identityUrl}/oidc/`;
    if (typeof iss !== 'string' || !iss.startsWith(prefix)) return null;
    return REALM.test(iss.slice(prefix.length)) ? iss : null;
  }

  private keySetOf(issuer: string) {
    let keySet = this.keySets.get(issuer);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(`${issuer}/jwks`), {
        cooldownDuration: 30_000,
        cacheMaxAge: 600_000,
      });
      this.keySets.set(issuer, keySet);
    }
    return keySet;
  }
}
