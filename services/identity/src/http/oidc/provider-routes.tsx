/**
 * @module http/oidc/provider-routes
 * "Sign in with XV": each realm's OpenID Provider under `/oidc/{realm}` (discovery at
 * `/oidc/{realm}/.well-known/openid-configuration`). oidc-provider answers the protocol's own endpoints
 * through its node callback; XV answers the interactions, with its own session and pages:
 *
 * | GET  /oidc/{realm}/interaction/{uid}         | a sign-in the provider needs: XV's session, or `/login` (or `/step-up` for `acr_values`) and back; then the consent page |
 * | POST /oidc/{realm}/interaction/{uid}/consent | form `decision=allow|deny` from the consent page |
 *
 * The token endpoint and app registration (`POST /oidc/{realm}/reg`, RFC 7591) are rate limited per client address.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { consumeOrReject, createRateLimiter, SESSION_COOKIE } from '@xv/platform';
import { type App, activeMembership, clientIp, sharedCookieOptions } from '@xv/platform/http';
import { shellOf } from '@xv/platform/pages';
import type { Context } from 'hono';
import { serialize } from 'hono/utils/cookie';
import type Provider from 'oidc-provider';
import { findOrganization, REALM_ID } from '../../accounts/repository.js';
import { sweepExpiredModels } from '../../oidc/adapter.js';
import { DESKTOP_CLIENT_ID, findOidcClient } from '../../oidc/clients.js';
import { rememberConsent } from '../../oidc/consents.js';
import { wantedLevel } from '../../oidc/levels.js';
import { issuerPath, OidcProviders } from '../../oidc/provider.js';
import { findSelfRegistered, isSelfRegistered } from '../../oidc/registration.js';
import { meetsLevel } from '../../sessions/assurance.js';
import type { SessionRecord } from '../../sessions/store.js';
import type { IdentityContext } from '../context.js';
import { readForm, withQuery } from '../forms.js';
import { sendMessage, sendPage } from '../respond.js';
import { ConsentPage, ContinuePage } from './pages.js';
import { providerPages, withProviderShell } from './provider-pages.js';

/** What @hono/node-server passes as the environment: the node request and response. */
interface NodeBindings {
  incoming: IncomingMessage & { originalUrl?: string };
  outgoing: ServerResponse;
}

/** Answered by the route itself on the node response: Hono leaves it alone. */
const ALREADY_SENT = new Response(null, { headers: { 'x-hono-already-sent': '1' } });

const GRACE_MS = 7 * 24 * 3600 * 1000;

export async function registerOidcProviderRoutes(
  app: App,
  identity: IdentityContext,
): Promise<OidcProviders> {
  const { config, db } = identity;
  const trustProxy = identity.service.settings.trustProxy;
  const providers = new OidcProviders({
    db,
    kek: identity.kek,
    sessions: identity.sessions,
    identityUrl: identity.identityUrl,
    trustProxy,
    keys: { rotationMs: config.oidcKeyRotationDays * 24 * 3600 * 1000, graceMs: GRACE_MS },
    pages: providerPages(identity.assets),
    endXvSession: (token) => identity.sessions.revoke(token),
    knowledgeResource: identity.service.settings.services.knowledge.url,
    clearXvSessionCookie: serialize(SESSION_COOKIE, '', {
      ...sharedCookieOptions(identity.sharedDomain),
      maxAge: 0,
    }),
  });
  const tokenRequests = await createRateLimiter(identity.database, {
    keyPrefix: 'identity-oidc-token',
    points: config.oidcTokenRequestsPerMinute,
    durationSeconds: 60,
  });
  const registrations = await createRateLimiter(identity.database, {
    keyPrefix: 'identity-oidc-registration',
    points: config.oidcRegistrationsPerHour,
    durationSeconds: 3600,
  });

  const sweep = setInterval(() => void sweepExpiredModels(db).catch(() => {}), 10 * 60_000);
  sweep.unref();
  identity.service.onClose(() => clearInterval(sweep));

  const providerOf = async (c: Context) => {
    const realm = c.req.param('realm') ?? '';
    const provider = REALM_ID.test(realm) ? await providers.forRealm(realm) : null;
    return { realm, provider };
  };
  const node = (c: Context) => c.env as NodeBindings;

  app.get('/oidc/:realm/interaction/:uid', async (c) => {
    const { realm, provider } = await providerOf(c);
    if (!provider) return notFound(identity, c);
    const { incoming, outgoing } = node(c);
    const details = await interactionOf(provider, incoming, outgoing);
    if (!details || details.uid !== c.req.param('uid')) return expired(identity, c);
    const here = `${issuerPath(realm)}/interaction/${details.uid}`;
    const session = await identity.currentSession(c);

    if (details.prompt.name === 'login') {
      const wanted = wantedLevel(details.params.acr_values);
      const usable =
        session &&
        session.realmId === realm &&
        recentEnough(session, details.params, await startOf(provider, incoming, outgoing, details));
      if (!usable)
        return c.redirect(
          withQuery('/login', {
            redirect: here,
            realm: realm === 'default' ? null : realm,
            aal: wanted === 'AAL1' ? null : wanted,
          }),
          303,
        );
      if (!meetsLevel(session.aal, wanted))
        return c.redirect(withQuery('/step-up', { aal: wanted, redirect: here }), 303);
      const login = {
        accountId: session.userId,
        acr: session.aal,
        amr: session.amr,
        ts: Math.floor(session.authTime / 1000),
        remember: false,
      };
      const to = await provider.interactionResult(
        incoming,
        outgoing,
        { login },
        { mergeWithLastSubmission: false },
      );
      return sendPage(identity, c, <ContinuePage assets={identity.assets} url={to} />);
    }

    if (details.prompt.name === 'consent') {
      if (!session || session.userId !== details.session?.accountId) return expired(identity, c);
      const shown = await appShown(identity, realm, String(details.params.client_id));
      if (!shown) return expired(identity, c);
      const asked = details.prompt.details;
      const oidcScopes = (asked.missingOIDCScope as string[] | undefined) ?? [];
      const resourceScopes = Object.values(
        (asked.missingResourceScopes ?? {}) as Record<string, string[]>,
      ).flat();
      const scopes = [...new Set([...oidcScopes, ...resourceScopes])];
      allowLogo(c, shown.logoUrl);
      return sendPage(
        identity,
        c,
        <ConsentPage
          assets={identity.assets}
          action={`${here}/consent`}
          app={shown}
          scopes={scopes.filter((scope) => scope !== 'openid' || scopes.length === 1)}
          email={session.view.user.email}
        />,
      );
    }
    return expired(identity, c);
  });

  app.post('/oidc/:realm/interaction/:uid/consent', async (c) => {
    const { realm, provider } = await providerOf(c);
    if (!provider) return notFound(identity, c);
    const { incoming, outgoing } = node(c);
    const details = await interactionOf(provider, incoming, outgoing);
    const session = await identity.currentSession(c);
    if (!details || details.uid !== c.req.param('uid') || details.prompt.name !== 'consent')
      return expired(identity, c);
    if (!session || session.userId !== details.session?.accountId) return expired(identity, c);
    const form = await readForm(c);
    const result =
      form.decision === 'allow'
        ? {
            consent: {
              grantId: await grantConsent(
                identity,
                provider,
                realm,
                session,
                details,
                activeMembership(session.view, c)?.org_id ?? null,
              ),
            },
          }
        : { error: 'access_denied', error_description: 'The person did not allow the app.' };
    const to = await provider.interactionResult(incoming, outgoing, result, {
      mergeWithLastSubmission: true,
    });
    return sendPage(identity, c, <ContinuePage assets={identity.assets} url={to} />);
  });

  // RFC 8414 §3.1 (and OpenID Connect Discovery's equivalent): metadata of an issuer with a path is also found
  // with the well-known part inserted before that path, where MCP clients look first.
  for (const document of ['oauth-authorization-server', 'openid-configuration'])
    app.get(`/.well-known/${document}/oidc/:realm`, async (c) => {
      const { realm, provider } = await providerOf(c);
      if (!provider) return notFound(identity, c);
      const { incoming, outgoing } = node(c);
      incoming.url = `/.well-known/${document}`;
      incoming.originalUrl = `${issuerPath(realm)}${incoming.url}`;
      await withProviderShell(shellOf(c), () => provider.callback()(incoming, outgoing));
      return ALREADY_SENT;
    });

  app.all('/oidc/:realm/*', async (c) => {
    const { realm, provider } = await providerOf(c);
    if (!provider) return notFound(identity, c);
    const prefix = issuerPath(realm);
    if (c.req.method === 'POST' && c.req.path === `${prefix}/token`)
      await consumeOrReject(tokenRequests, clientIp(c, trustProxy));
    if (c.req.method === 'POST' && c.req.path === `${prefix}/reg`)
      await consumeOrReject(registrations, clientIp(c, trustProxy));
    const { incoming, outgoing } = node(c);
    // oidc-provider routes on the path below its issuer, and builds its URLs from the full one.
    incoming.originalUrl = incoming.url;
    incoming.url = (incoming.url ?? '/').slice(prefix.length) || '/';
    // The provider's own pages (sign out, device sign-in, errors) answer in the request's language; they
    // show no viewer, as the person may be signing out.
    await withProviderShell(shellOf(c), () => provider.callback()(incoming, outgoing));
    return ALREADY_SENT;
  });

  return providers;
}

/**
 * `prompt=login` asks for a sign-in made after the app's request, and `max_age` for one at most that many
 * seconds old: otherwise the person signs in again.
 */
function recentEnough(
  session: SessionRecord,
  params: Record<string, unknown>,
  requestedAt: number,
  now = Date.now(),
): boolean {
  const prompts = typeof params.prompt === 'string' ? params.prompt.split(' ') : [];
  const maxAge = params.max_age === undefined ? Number.NaN : Number(params.max_age);
  if (prompts.includes('login') && session.authTime < requestedAt) return false;
  return !Number.isFinite(maxAge) || now - session.authTime <= maxAge * 1000;
}

/**
 * When the app's request reached XV, to the millisecond (the interaction's own times are whole seconds): noted
 * in the interaction on the first visit, where the provider keeps it until the interaction ends.
 */
async function startOf(provider: Provider, req: IncomingMessage, res: ServerResponse, details: Details) {
  const noted = Number(details.result?.xv_started_at);
  if (Number.isFinite(noted)) return noted;
  const now = Date.now();
  await provider.interactionResult(req, res, { xv_started_at: now }, { mergeWithLastSubmission: false });
  return now;
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/** The interaction of the request's interaction cookie, or null when it is missing or over. */
async function interactionOf(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Details | null> {
  try {
    return await provider.interactionDetails(req, res);
  } catch {
    return null;
  }
}

/** Records the scopes the person allowed in the app's grant, and remembers the consent for next time. */
async function grantConsent(
  identity: IdentityContext,
  provider: Provider,
  realm: string,
  session: SessionRecord,
  details: Details,
  orgId: string | null,
): Promise<string> {
  const clientId = String(details.params.client_id);
  const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
  const grant = existing ?? new provider.Grant({ accountId: session.userId, clientId });
  const missing = details.prompt.details;
  if (Array.isArray(missing.missingOIDCScope)) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (Array.isArray(missing.missingOIDCClaims)) grant.addOIDCClaims(missing.missingOIDCClaims as string[]);
  const resources = (missing.missingResourceScopes ?? {}) as Record<string, string[]>;
  for (const [indicator, scopes] of Object.entries(resources))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await rememberConsent(identity.db, {
    realmId: realm,
    userId: session.userId,
    clientId,
    grantId,
    orgId,
    scopes: [
      ...(grant.getOIDCScope() || '').split(' '),
      ...Object.keys(resources).flatMap((indicator) => (grant.getResourceScope(indicator) || '').split(' ')),
    ].filter(Boolean),
  });
  return grantId;
}

/** What the consent page says of an app: its name (none: XV's desktop client) and logo, and who registered it. */
async function appShown(identity: IdentityContext, realm: string, clientId: string) {
  if (clientId === DESKTOP_CLIENT_ID)
    return { name: null, logoUrl: null, organization: 'XV', selfRegistered: false };
  if (isSelfRegistered(clientId)) {
    const registered = await findSelfRegistered(identity.db, realm, clientId);
    return registered
      ? { name: String(registered.client_name), logoUrl: null, organization: null, selfRegistered: true }
      : null;
  }
  const client = await findOidcClient(identity.db, realm, clientId);
  if (!client) return null;
  const org = await findOrganization(identity.db, client.org_id);
  return {
    name: client.name,
    logoUrl: client.logo_url,
    organization: org?.name ?? null,
    selfRegistered: false,
  };
}

/** The consent page shows the app's logo from its own https origin. */
function allowLogo(c: Context, logoUrl: string | null) {
  if (!logoUrl) return;
  const origin = new URL(logoUrl).origin;
  c.set('cspAllowed', { ...(c.get('cspAllowed') ?? {}), 'img-src': [origin] });
}

function notFound(identity: IdentityContext, c: Context) {
  return sendMessage(identity, c, { title: 'oidc.noRealm.title', message: 'oidc.noRealm.message' }, 404);
}

function expired(identity: IdentityContext, c: Context) {
  return sendMessage(identity, c, { title: 'oidc.expired.title', message: 'oidc.expired.message' }, 400);
}
