/**
 * @module commands/kb-login
 * `xv kb login`: the desktop client signs in through XV's OpenID Provider with the device flow (RFC 8628):
 * it prints a short code and a link, the person approves in the browser (with their second factor), and the
 * client keeps a `sync` token for the knowledge base, with its refresh token, in the user's configuration
 * folder (`$XDG_CONFIG_HOME/xv/kb-login.json`, else `~/.config/xv/`; `%APPDATA%\xv\` on Windows), readable by
 * its owner only. `xv kb sync` uses it when no personal access token is given, and refreshes it when it is
 * about to expire. openid-client does the protocol.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadPlatformSettings } from '@xv/platform';
import * as oidc from 'openid-client';
import { UsageError } from '../launcher/start.js';
import { type Env, type Out, option } from './args.js';

/** XV's desktop client: a public app every realm knows. */
const DESKTOP_CLIENT_ID = 'xv-desktop';
/** A token this close to its end is refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;

interface StoredLogin {
  issuer: string;
  resource: string;
  access_token: string;
  refresh_token: string | null;
  expires_at: number;
}

export function loginFile(env: Env): string {
  const base =
    env.XDG_CONFIG_HOME ??
    (process.platform === 'win32' && env.APPDATA ? env.APPDATA : join(env.HOME ?? homedir(), '.config'));
  return join(base, 'xv', 'kb-login.json');
}

async function client(issuer: string) {
  const insecure = new URL(issuer).protocol === 'http:';
  return oidc.discovery(new URL(issuer), DESKTOP_CLIENT_ID, {}, oidc.None(), {
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
}

/** Writes the login readable by its owner only (the folder too), replacing the old one in one step. */
async function save(file: string, login: StoredLogin) {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  await chmod(partial, 0o600);
  await rename(partial, file);
}

function stored(
  issuer: string,
  resource: string,
  tokens: oidc.TokenEndpointResponse,
  previous?: StoredLogin,
) {
  return {
    issuer,
    resource,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? previous?.refresh_token ?? null,
    expires_at: Date.now() + (tokens.expires_in ?? 3600) * 1000,
  };
}

export async function kbLogin(args: string[], env: Env, out: Out): Promise<number> {
  const settings = loadPlatformSettings('knowledge', env);
  const identityUrl = (option(args, 'identity') ?? settings.services.identity.url).replace(/\/+$/, '');
  const resource = (option(args, 'url') ?? env.XV_KB_URL ?? settings.services.knowledge.url).replace(
    /\/+$/,
    '',
  );
  const realm = option(args, 'realm') ?? 'default';
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(realm)) throw new UsageError(`not a realm id: ${realm}`);
  const issuer = `${identityUrl}/oidc/${realm}`;
  const config = await client(issuer);
  const device = await oidc.initiateDeviceAuthorization(config, {
    scope: 'openid offline_access sync',
    acr_values: 'AAL2',
    resource,
  });
  out(`To sign in, open ${device.verification_uri} and enter the code ${device.user_code}`);
  if (device.verification_uri_complete) out(`(or open ${device.verification_uri_complete})`);
  out('Waiting for you to approve in the browser…');
  const tokens = await oidc.pollDeviceAuthorizationGrant(config, device);
  const file = loginFile(env);
  await save(file, stored(issuer, resource, tokens));
  out(`Signed in. The sync token is kept in ${file}.`);
  return 0;
}

/**
 * The access token of `xv kb login` for the knowledge base at `resource`, refreshed when it is about to
 * expire; undefined when there is no login for it.
 */
export async function storedKbToken(env: Env, resource: string): Promise<string | undefined> {
  const file = loginFile(env);
  let login: StoredLogin;
  try {
    login = JSON.parse(await readFile(file, 'utf8')) as StoredLogin;
  } catch {
    return undefined;
  }
  if (login.resource !== resource) return undefined;
  if (login.expires_at - REFRESH_MARGIN_MS > Date.now()) return login.access_token;
  if (!login.refresh_token) throw new UsageError('the sign-in of `xv kb login` has expired: run it again');
  let tokens: oidc.TokenEndpointResponse;
  try {
    tokens = await oidc.refreshTokenGrant(await client(login.issuer), login.refresh_token);
  } catch (error) {
    if (error instanceof oidc.ResponseBodyError)
      throw new UsageError('the sign-in of `xv kb login` is no longer valid: run it again');
    throw error;
  }
  const next = stored(login.issuer, resource, tokens, login);
  await save(file, next);
  return next.access_token;
}
