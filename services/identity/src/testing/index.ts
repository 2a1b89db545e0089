/**
 * @module @xv/identity/testing
 * Helpers for tests of any XV service that need real people, organizations and
 * tokens: they drive the REAL identity service over HTTP, exactly as a browser or
 * a machine client would.
 *
 * ```ts
 * import { startIdentity, signUp, createUser, createServiceClient } from '@xv/identity/testing';
 * const identity = await startIdentity(await target.open('identity'));
 * const admin = await signUp(identity.url, { email: 'a@x.test', password: 'secret-1', name: 'Ada', orgName: 'Acme' });
 * const reviewer = await createUser(identity.url, admin.cookie, { email: 'r@x.test', password: 'secret-2', name: 'Rae', role: 'reviewer' });
 * const { token } = await createServiceClient(identity.url, admin.cookie, { name: 'ci', scopes: ['did:issue'], org_id: admin.session.memberships[0].org_id });
 * // then point your service at it: env { XV_IDENTITY_URL: identity.url }
 * ```
 *
 * - `startIdentity(database, env?)` → RunningService: the identity service on a free port
 *   (registration and per-IP limits raised so suites can create many users).
 * - `signUp(identityUrl, { email, password, name, orgName })` → `{ cookie, session }`:
 *   posts the registration form (a new organization with this person as admin);
 *   `cookie` is `xv_session=…`, ready for a `cookie` header; `session` is `GET /api/session`.
 * - `signIn(identityUrl, email, password, { realm?, totpSecret? })` → `{ cookie, session }`;
 *   with `totpSecret` it answers the 2FA step too.
 * - `addMember(identityUrl, adminCookie, email, role)` → `{ org_id, user_id, role }`: adds an
 *   existing user of the realm to the admin's active organization.
 * - `createUser(identityUrl, adminCookie, { email, password, name, role })` → `{ cookie, session }`:
 *   registers a second person (who also gets an organization of their own), adds them
 *   to the admin's active organization with `role`, and returns a cookie that carries
 *   `xv_org=<that organization>` so they act in it.
 * - `createServiceClient(identityUrl, adminCookie, { name, scopes, org_id })` → `{ id, token }`.
 * - `enableTotp(identityUrl, cookie, password)` → `{ secret, recoveryCodes, cookie }`: turns 2FA on
 *   (re-entering the password) and signs in again with it: `cookie` is an AAL2 session that has just
 *   proved it (enrolment itself never raises a session). The current time step's code is spent.
 * - `totpCode(secret)`: the current code of a TOTP secret.
 * - `new SoftwareAuthenticator({ deviceBound?, userVerified?, attestation? })`: a WebAuthn authenticator
 *   in software (P-256, `none` attestation, or `packed` with `attestation: { certificates, privateKey }`);
 *   by default device-bound and verifying the user, so its passkeys give AAL3 (testing/passkeys.ts).
 * - `registerPasskey(identityUrl, cookie, authenticator, { name?, password? })` → `{ id, aal }`: adds
 *   one of its passkeys to the signed-in person's account (`password` for the account's first second
 *   factor; later ones need a session that proved AAL2 in the last 10 minutes).
 * - `signInWithPasskey(identityUrl, authenticator, cookie?)` → `{ cookie, session }`: signs in with
 *   it; with the cookie of that person's session, a step-up (the session is raised under a new
 *   `cookie`; the old one ends).
 * - `new Browser(cookie?)`, `approveDevice(cookie, verificationUriComplete)`: a cookie-keeping browser for
 *   "Sign in with XV", and the person's part of a device sign-in (testing/oidc.ts).
 * - `newWallet()` → a holder's wallet written by others (`@openid4vc/openid4vci`, P-256 key):
 *   `redeem(offerUri, pin)` → `{ configurationIds, sdjwt }` redeems an OpenID4VCI offer;
 *   `present(sdjwt, { nonce, aud })` adds a Key Binding JWT; `publicJwk` is its key
 *   (testing/wallet.ts).
 */
import { type AnyDatabase, type Logger, openDatabase } from '@xv/platform';
import { listen } from '@xv/platform/http';
import { buildService } from '@xv/platform/service';
import { freePort, type RunningService, startService, tempDir } from '@xv/platform/testing';
import { totpCode } from '../mfa/totp.js';
import { identityService } from '../service.js';
import { cookieFrom, type SignedIn, sessionOf } from './http.js';

export { approveDevice, Browser, formAction, hiddenInputs } from './oidc.js';
export {
  type AuthenticatorOptions,
  registerPasskey,
  SoftwareAuthenticator,
  signInWithPasskey,
} from './passkeys.js';
export { newWallet, type Wallet } from './wallet.js';
export { type SignedIn, sessionOf, totpCode };

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * Identity on a fresh SQLite file, served at `http://localhost:<port>` for browser
 * tests: WebAuthn needs a host name as its relying party id, and a browser treats
 * localhost as a secure context (WebCrypto, the clipboard).
 */
export async function serveOnLocalhost(
  env: Record<string, string> = {},
): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = tempDir();
  const database = await openDatabase({ service: 'identity', dataDir });
  const built = await buildService(identityService, {
    database,
    env: {
      XV_LOG_LEVEL: 'silent',
      XV_DATA_DIR: dataDir,
      XV_IDENTITY_PORT: String(port),
      XV_IDENTITY_URL: base,
      ...env,
    },
  });
  const server = await listen(built.app, port, '127.0.0.1');
  return {
    base,
    stop: async () => {
      await server.close(500);
      await built.close();
      await database.close();
    },
  };
}

export function startIdentity(
  database: AnyDatabase,
  env: Record<string, string | undefined> = {},
  options: { logger?: Logger } = {},
): Promise<RunningService> {
  return startService(identityService, {
    ...options,
    database,
    env: {
      XV_IDENTITY_REGISTRATIONS_PER_IP_HOUR: '100000',
      XV_IDENTITY_IP_MAX_FAILURES: '100000',
      ...env,
    },
  }) as Promise<RunningService>;
}

async function postForm(url: string, fields: Record<string, string>, cookie?: string) {
  return fetch(url, {
    method: 'POST',
    headers: { ...FORM, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

export async function signUp(
  identityUrl: string,
  person: { email: string; password: string; name: string; orgName: string },
): Promise<SignedIn> {
  const response = await postForm(`${identityUrl}/api/auth/register`, person);
  const cookie = cookieFrom(response, 'xv_session');
  if (response.status !== 303 || !cookie)
    throw new Error(`registration failed: ${response.status} ${response.headers.get('location')}`);
  return { cookie, session: await sessionOf(identityUrl, cookie) };
}

export async function signIn(
  identityUrl: string,
  email: string,
  password: string,
  options: { realm?: string; totpSecret?: string } = {},
): Promise<SignedIn> {
  const fields: Record<string, string> = {
    email,
    password,
    ...(options.realm ? { realm: options.realm } : {}),
  };
  const response = await postForm(`${identityUrl}/api/auth/login`, fields);
  let cookie = cookieFrom(response, 'xv_session');
  const mfa = cookieFrom(response, 'xv_mfa');
  if (!cookie && mfa && options.totpSecret) {
    const second = await postForm(`${identityUrl}/api/auth/2fa`, { code: totpCode(options.totpSecret) }, mfa);
    cookie = cookieFrom(second, 'xv_session');
  }
  if (!cookie) throw new Error(`sign-in failed: ${response.status} ${response.headers.get('location')}`);
  return { cookie, session: await sessionOf(identityUrl, cookie) };
}

async function postJson(url: string, cookie: string, body: unknown, expected: number) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
  if (response.status !== expected)
    throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

export async function addMember(
  identityUrl: string,
  adminCookie: string,
  email: string,
  role: 'admin' | 'reviewer' | 'support' | 'member',
): Promise<{ org_id: string; user_id: string; role: string }> {
  return postJson(`${identityUrl}/api/org/members`, adminCookie, { email, role }, 201);
}

export async function createUser(
  identityUrl: string,
  adminCookie: string,
  person: {
    email: string;
    password: string;
    name: string;
    role: 'admin' | 'reviewer' | 'support' | 'member';
  },
): Promise<SignedIn> {
  const own = await signUp(identityUrl, { ...person, orgName: `${person.name}'s own organization` });
  const { org_id } = await addMember(identityUrl, adminCookie, person.email, person.role);
  const cookie = `${own.cookie}; xv_org=${org_id}`;
  return { cookie, session: await sessionOf(identityUrl, cookie) };
}

/** Turns the public assistant of the admin's active organization on or off. */
export async function setPublicAssistant(
  identityUrl: string,
  adminCookie: string,
  on: boolean,
): Promise<void> {
  await postJson(`${identityUrl}/api/org/settings`, adminCookie, { public_assistant: on }, 200);
}

export async function createServiceClient(
  identityUrl: string,
  adminCookie: string,
  client: { name: string; scopes: string[]; org_id: string },
): Promise<{ id: string; token: string }> {
  const { id, token } = await postJson(`${identityUrl}/api/service-clients`, adminCookie, client, 201);
  return { id, token };
}

/**
 * Turns 2FA on for an account with no second factor yet (its `password` is asked again). The session
 * keeps its level; the returned `cookie` is a new sign-in with the password and the first TOTP code (AAL2).
 * Enrolment confirms with the previous time step's code, so the current one is left for that sign-in.
 */
export async function enableTotp(
  identityUrl: string,
  cookie: string,
  password: string,
): Promise<{ secret: string; recoveryCodes: string[]; cookie: string }> {
  const { secret } = await postJson(`${identityUrl}/api/auth/2fa/setup`, cookie, { password }, 200);
  const { recoveryCodes } = (await postJson(
    `${identityUrl}/api/auth/2fa/enable`,
    cookie,
    { code: totpCode(secret, Date.now() - 30_000) },
    200,
  )) as { recoveryCodes: string[] };
  const { user, realmId } = await sessionOf(identityUrl, cookie);
  const signedIn = await signIn(identityUrl, user.email, password, { realm: realmId, totpSecret: secret });
  return { secret, recoveryCodes, cookie: signedIn.cookie };
}
