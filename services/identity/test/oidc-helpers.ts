/**
 * What the OpenID Provider tests share: a small cookie-keeping browser that follows redirects and the
 * "continuing" page's meta refresh, an app registered through the API, and openid-client configured for it.
 */
import type { RunningService } from '@xv/platform/testing';
import * as oidc from 'openid-client';
import { postJson } from './helpers.js';

/** Where the test apps say they live; nothing listens there: the browser stops when it is sent there. */
export const APP_CALLBACK = 'http://127.0.0.1:9/callback';
export const APP_SIGNED_OUT = 'http://127.0.0.1:9/signed-out';

/** Keeps cookies by name (enough for one identity origin) and follows the provider's hops. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(cookie?: string) {
    for (const pair of (cookie ?? '').split('; ').filter(Boolean)) this.keep(pair);
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** One request with this browser's cookies; the cookies it sets are kept, cleared ones dropped. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(line) || pair.endsWith('=');
      if (expired) this.cookies.delete(pair.slice(0, pair.indexOf('=')));
      else this.keep(pair);
    }
    return response;
  }

  /**
   * Follows redirects and "continuing" pages from `url` until the browser is sent to `stopAt` (answered
   * with that URL), or lands on a page (answered with its response and URL).
   */
  async follow(
    url: string,
    stopAt = 'http://127.0.0.1:9/',
  ): Promise<{ url: string; response?: Response; html?: string }> {
    let current = url;
    for (let hop = 0; hop < 20; hop += 1) {
      if (current.startsWith(stopAt)) return { url: current };
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        current = new URL(location, current).href;
        continue;
      }
      const html = await response.text();
      const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)"/.exec(html);
      if (refresh) {
        current = new URL(refresh[1]!.replaceAll('&amp;', '&'), current).href;
        continue;
      }
      return { url: current, response, html };
    }
    throw new Error('too many hops');
  }

  /** Posts a form as the page at `pageUrl` would, then follows on. */
  async submit(pageUrl: string, action: string, fields: Record<string, string>) {
    const target = new URL(action.replaceAll('&amp;', '&'), pageUrl).href;
    const response = await this.request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(pageUrl).origin },
      body: new URLSearchParams(fields).toString(),
    });
    const location = response.headers.get('location');
    if (location) return this.follow(new URL(location, target).href);
    const html = await response.text();
    const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)"/.exec(html);
    if (refresh) return this.follow(new URL(refresh[1]!.replaceAll('&amp;', '&'), target).href);
    return { url: target, response, html };
  }

  private keep(pair: string) {
    const at = pair.indexOf('=');
    if (at > 0) this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** The `action` of the page's form (the first one, or the one whose action contains `hint`). */
export function formAction(html: string, hint = ''): string {
  for (const match of html.matchAll(/<form[^>]*action="([^"]+)"/g))
    if (match[1]!.includes(hint)) return match[1]!.replaceAll('&amp;', '&');
  throw new Error(`no form with ${hint} on the page`);
}

export interface RegisteredApp {
  client_id: string;
  client_secret: string | null;
  redirect_uris: string[];
}

export async function registerApp(
  svc: RunningService,
  adminCookie: string,
  body: Record<string, unknown> = {},
): Promise<RegisteredApp> {
  const response = await postJson(
    svc,
    '/api/oidc/clients',
    {
      name: 'Acme Wiki',
      kind: 'confidential',
      redirect_uris: [APP_CALLBACK],
      post_logout_redirect_uris: [APP_SIGNED_OUT],
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      ...body,
    },
    adminCookie,
  );
  if (response.status !== 201)
    throw new Error(`registering an app answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as RegisteredApp;
}

/** openid-client, configured from the realm's discovery document for `app`. */
export function relyingParty(svc: RunningService, app: RegisteredApp, realm = 'default') {
  return oidc.discovery(
    new URL(`${svc.url}/oidc/${realm}`),
    app.client_id,
    app.client_secret ? { client_secret: app.client_secret } : {},
    app.client_secret ? oidc.ClientSecretBasic(app.client_secret) : oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
}

/** A code flow's request: its URL and the values the app keeps to check the answer. */
export async function authorizationRequest(config: oidc.Configuration, params: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: APP_CALLBACK,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...params,
  });
  return { url: url.href, verifier, state, nonce };
}

export { oidc };
