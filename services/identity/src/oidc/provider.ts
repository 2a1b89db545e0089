/**
 * @module oidc/provider
 * XV's OpenID Provider: one oidc-provider instance per realm, issuer `{identity}/oidc/{realm}`, made on the
 * first request for that realm and made again when its signing key rotates. oidc-provider speaks the
 * protocol; this module gives it XV's storage (adapter.ts), keys (keys.ts), people (users of the realm),
 * apps (clients.ts) and remembered consents, and adds to its login prompt the two reasons XV has to ask
 * again: the XV session behind the provider's session ended (or is someone else's now), and the app asks
 * through `acr_values` for a level the session has not proved.
 */
import { type KeyEncryptionKey, SESSION_COOKIE } from '@xv/platform';
import Provider, {
  type Configuration,
  errors,
  interactionPolicy,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { findRealm, findUserById, membershipsOf } from '../accounts/repository.js';
import type { IdentityDb } from '../db.js';
import { levelRank } from '../sessions/assurance.js';
import type { SessionStore } from '../sessions/store.js';
import { adapterForRealm } from './adapter.js';
import { compareHashedSecret, DESKTOP_CLIENT_ID, OIDC_SCOPE_NAMES, RESOURCE_SCOPES } from './clients.js';
import { consentOrganization, rememberedGrantId } from './consents.js';
import { type KeyPolicy, loadRealmKeys } from './keys.js';
import { ACR_VALUES, wantedLevel } from './levels.js';
import { holdRegistration, isSelfRegistered, newSelfRegisteredId } from './registration.js';

/** The HTML pages the provider itself answers with; rendered by `http/oidc`. */
export interface ProviderPages {
  /** The "sign out?" question of RP-initiated logout; `form` is the provider's hidden form to submit. */
  logout(form: string, clientName: string | undefined): string;
  loggedOut(clientName: string | undefined): string;
  /** The device flow's pages: enter the code, confirm it, done. */
  deviceInput(form: string, failed: boolean): string;
  deviceConfirm(form: string, clientName: string | undefined, userCode: string): string;
  deviceSuccess(clientName: string | undefined): string;
  error(out: { error: string; error_description?: string | undefined }): string;
}

export interface ProviderOptions {
  db: IdentityDb;
  kek: KeyEncryptionKey;
  sessions: SessionStore;
  identityUrl: string;
  /** Behind a TLS-terminating proxy: trust its `X-Forwarded-*` headers. */
  trustProxy: boolean;
  keys: KeyPolicy;
  pages: ProviderPages;
  /** Ends the XV session of a request's `xv_session` token (RP-initiated logout). */
  endXvSession(token: string): Promise<void>;
  /**
   * The knowledge base's resource indicator (its public URL): access tokens for it are JWTs bound to it
   * (`aud`), carrying the organization and the person's e-mail address.
   */
  knowledgeResource: string;
  /** The `Set-Cookie` value that clears `xv_session` in the browser. */
  clearXvSessionCookie: string;
}

/**
 * The resource indicators (RFC 8707) of the knowledge base: the service itself (the desktop client's sync) and
 * its MCP endpoint (MCP clients name it, as the MCP authorization spec asks). A token is bound to the one named.
 */
export function knowledgeResources(knowledgeUrl: string): string[] {
  return [knowledgeUrl, `${knowledgeUrl}/mcp`];
}

/** Where a realm's provider lives: its issuer, and the path prefix its routes are mounted under. */
export function issuerPath(realmId: string): string {
  return `/oidc/${realmId}`;
}

/** How long an app's sign-in request may wait for the person. */
const INTERACTION_TTL_SECONDS = 3600;

interface Built {
  provider: Provider;
  rotateAt: number;
}

export class OidcProviders {
  private readonly built = new Map<string, Promise<Built>>();

  constructor(private readonly options: ProviderOptions) {}

  /** The provider of `realmId`, or null when there is no such realm. */
  async forRealm(realmId: string, now = Date.now()): Promise<Provider | null> {
    const cached = this.built.get(realmId);
    if (cached) {
      const built = await cached.catch(() => null);
      if (built && built.rotateAt > now) return built.provider;
      this.built.delete(realmId);
    }
    if (!(await findRealm(this.options.db, realmId))) return null;
    const building = this.build(realmId, now);
    this.built.set(realmId, building);
    return (await building).provider;
  }

  private async build(realmId: string, now: number): Promise<Built> {
    const { db, kek } = this.options;
    const keys = await loadRealmKeys(db, kek, realmId, this.options.keys, now);
    const provider = new Provider(`${this.options.identityUrl}${issuerPath(realmId)}`, {
      ...this.configuration(realmId),
      jwks: { keys: keys.signing },
      cookies: {
        keys: keys.cookieKeys,
        names: {
          session: `xv_oidc_${realmId}`,
          interaction: `xv_oidc_interaction`,
          resume: `xv_oidc_resume`,
        },
        long: { httpOnly: true, sameSite: 'lax' },
        short: { httpOnly: true, sameSite: 'lax' },
      },
    });
    provider.proxy = this.options.trustProxy;
    // The stored secret is its SHA-256: compare what the app presents by hashing it.
    provider.Client.prototype.compareClientSecret = async function compare(
      this: { clientSecret?: string },
      actual,
    ) {
      return !!this.clientSecret && compareHashedSecret(this.clientSecret, actual);
    };
    provider.use(async (ctx, next) => {
      // Set first: the provider adds the hash of the one script it writes itself (its auto-posting form).
      ctx.set('Content-Security-Policy', PAGE_CSP);
      await next();
      // Ending the XV session is part of the answer to a logout: done before the answer leaves.
      const pending = ctx.state.endXvSession as Promise<void> | undefined;
      if (pending) await pending;
    });
    provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
      const token = ctx.cookies.get(SESSION_COOKIE, { signed: false });
      if (!ctx.oidc.params?.logout || !token) return;
      ctx.state.endXvSession = this.options.endXvSession(token);
      ctx.append('Set-Cookie', this.options.clearXvSessionCookie);
    });
    return { provider, rotateAt: keys.rotateAt };
  }

  private configuration(realmId: string): Configuration {
    const { db, sessions, pages, knowledgeResource } = this.options;
    const policy = interactionPolicy.base();
    const login = policy.get('login')!;
    login.checks.add(
      new interactionPolicy.Check(
        'xv_session_ended',
        'the XV session behind this sign-in ended or belongs to someone else',
        async (ctx) => {
          const accountId = ctx.oidc.session?.accountId;
          if (!accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
          const session = await sessions.resolve(ctx.cookies.get(SESSION_COOKIE, { signed: false }));
          return session?.userId !== accountId || session.realmId !== realmId;
        },
      ),
    );
    login.checks.add(
      new interactionPolicy.Check(
        'acr_values_unmet',
        'the app asks for a higher assurance level',
        async (ctx) => {
          const wanted = wantedLevel(ctx.oidc.params?.acr_values);
          return levelRank(ctx.oidc.session?.acr ?? 'AAL1') < levelRank(wanted);
        },
      ),
    );
    return {
      adapter: adapterForRealm(db, realmId),
      clients: [],
      acrValues: [...ACR_VALUES],
      scopes: [...OIDC_SCOPE_NAMES, ...Object.keys(RESOURCE_SCOPES)],
      claims: {
        sid: null,
        iss: null,
        // Every ID token states how and when the person signed in, whether or not the app asked.
        openid: ['sub', 'acr', 'amr', 'auth_time'],
        email: ['email', 'email_verified'],
        profile: ['name'],
        organizations: ['organizations'],
      },
      extraClientMetadata: {
        properties: ['org_id'],
        // Called once per app (one extra property); a registration is held to what a self-registered app may be.
        validator(ctx, _key, _value, metadata) {
          if (ctx?.oidc?.route === 'registration') holdRegistration(metadata);
        },
      },
      async findAccount(_ctx, sub) {
        const user = await findUserById(db, sub);
        if (!user || user.realm_id !== realmId || user.disabled_at !== null) return undefined;
        return {
          accountId: user.id,
          async claims() {
            const memberships = await membershipsOf(db, user.id);
            return {
              sub: user.id,
              email: user.email,
              email_verified: user.email_verified_at !== null,
              name: user.name,
              organizations: memberships.map((m) => ({ id: m.org_id, name: m.org_name, role: m.role })),
            };
          },
        };
      },
      async loadExistingGrant(ctx) {
        const clientId = ctx.oidc.client?.clientId;
        const accountId = ctx.oidc.session?.accountId;
        if (!clientId || !accountId) return undefined;
        const grantId =
          ctx.oidc.result?.consent?.grantId ||
          ctx.oidc.session?.grantIdFor(clientId) ||
          (await rememberedGrantId(db, realmId, accountId, clientId));
        if (!grantId) return undefined;
        const grant = await ctx.oidc.provider.Grant.find(grantId);
        return grant && grant.accountId === accountId && grant.clientId === clientId ? grant : undefined;
      },
      interactions: {
        policy,
        url: (_ctx, interaction) => `${issuerPath(realmId)}/interaction/${interaction.uid}`,
      },
      features: {
        devInteractions: { enabled: false },
        // Open Dynamic Client Registration (RFC 7591) for MCP clients, held to registration.ts's rules and
        // rate limited per address (http/oidc). No registration access token: a registered app is not managed.
        registration: {
          enabled: true,
          initialAccessToken: false,
          issueRegistrationAccessToken: false,
          idFactory: newSelfRegisteredId,
        },
        deviceFlow: {
          enabled: true,
          charset: 'base-20',
          mask: '****-****',
          async userCodeInputSource(ctx, form, _out, error) {
            ctx.type = 'html';
            ctx.body = pages.deviceInput(form, !!error);
          },
          async userCodeConfirmSource(ctx, form, client, _deviceInfo, userCode) {
            ctx.type = 'html';
            ctx.body = pages.deviceConfirm(form, client.clientName, userCode);
          },
          async successSource(ctx) {
            ctx.type = 'html';
            ctx.body = pages.deviceSuccess(ctx.oidc.client?.clientName);
          },
        },
        resourceIndicators: {
          enabled: true,
          // The desktop client's tokens are for the knowledge base even when it names no resource.
          defaultResource: (ctx) =>
            ctx.oidc.client?.clientId === DESKTOP_CLIENT_ID ? knowledgeResource : undefined,
          useGrantedResource: () => true,
          async getResourceServerInfo(_ctx, indicator, client) {
            const [api, mcp] = knowledgeResources(knowledgeResource);
            if (indicator !== api && indicator !== mcp) throw new errors.InvalidTarget();
            // A self-registered app gets tokens for the MCP endpoint only; the MCP endpoint takes `ai:read` only.
            if (isSelfRegistered(client.clientId) && indicator !== mcp) throw new errors.InvalidTarget();
            return {
              scope: indicator === mcp ? 'ai:read' : Object.keys(RESOURCE_SCOPES).join(' '),
              audience: indicator,
              accessTokenTTL: 3600,
              accessTokenFormat: 'jwt',
              jwt: { sign: { alg: 'RS256' } },
            };
          },
        },
        userinfo: { enabled: true },
        revocation: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          async logoutSource(ctx, form) {
            ctx.type = 'html';
            ctx.body = pages.logout(form, ctx.oidc.client?.clientName);
          },
          async postLogoutSuccessSource(ctx) {
            ctx.type = 'html';
            ctx.body = pages.loggedOut(ctx.oidc.client?.clientName);
          },
        },
      },
      // PKCE with S256 for every app (oidc-provider knows no `plain`): a stolen code is worth nothing.
      pkce: { required: () => true },
      // Every refresh rotates the token, so a refresh token used twice shows a theft: the grant is revoked.
      rotateRefreshToken: true,
      ttl: {
        AccessToken: 3600,
        AuthorizationCode: 60,
        // A device code the person has ten minutes to approve (RFC 8628 leaves the lifetime to the server).
        DeviceCode: 600,
        IdToken: 3600,
        Interaction: INTERACTION_TTL_SECONDS,
        Session: 14 * 24 * 3600,
        Grant: 365 * 24 * 3600,
        RefreshToken: 30 * 24 * 3600,
      },
      async extraTokenClaims(_ctx, token) {
        // A token for an XV service acts in the organization the person allowed it in, as a PAT does.
        if (token.kind !== 'AccessToken') return undefined;
        const audience = token.aud;
        if (typeof audience !== 'string' || !knowledgeResources(knowledgeResource).includes(audience))
          return undefined;
        const user = await findUserById(db, token.accountId);
        const orgId = token.clientId ? await consentOrganization(db, token.accountId, token.clientId) : null;
        return { email: user?.email, org_id: orgId ?? undefined, realm: realmId };
      },
      async renderError(ctx, out) {
        ctx.type = 'html';
        ctx.body = pages.error(out);
      },
    };
  }
}

/** The provider's own pages (logout, device, errors): the page frame's assets, app logos, no inline code. */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; base-uri 'none'; frame-ancestors 'none'";
