/**
 * @module @xv/identity/testing/http
 * What every identity test helper needs from a response: its session cookie, and the
 * session behind a cookie.
 */
import type { IdentitySession } from '@xv/platform';

export interface SignedIn {
  /** A `cookie` header value: `xv_session=…` (plus `; xv_org=…` from `createUser`). */
  cookie: string;
  session: IdentitySession;
}

/** `name=value` of a cookie the response sets (not one it clears). */
export function cookieFrom(response: Response, name: string): string | undefined {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    if (pair?.startsWith(`${name}=`) && pair.length > name.length + 1) return pair;
  }
  return undefined;
}

export async function sessionOf(identityUrl: string, cookie: string): Promise<IdentitySession> {
  const response = await fetch(`${identityUrl}/api/session`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`GET /api/session answered ${response.status}`);
  return (await response.json()) as IdentitySession;
}
