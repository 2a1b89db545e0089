/**
 * What the OpenID Provider tests share: a small cookie-keeping browser that follows redirects and the
 * "continuing" page's meta refresh, an app registered through the API, and openid-client configured for it.
 */
import type { RunningService } from '@xv/platform/testing';
import * as oidc from 'openid-client';
import { postJson } from './helpers.js';

export { Browser, formAction, hiddenInputs } from '../src/testing/oidc.js';

/** Where the test apps say they live; nothing listens there: the browser stops when it is sent there. */
export const APP_CALLBACK = 'http://127.0.0.1:9/callback';
export const APP_SIGNED_OUT = 'http://127.0.0.1:9/signed-out';

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
