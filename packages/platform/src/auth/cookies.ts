/**
 * @module auth/cookies
 * The cookies XV shares across its sites, and the attributes they carry: HttpOnly,
 * SameSite=Lax, Secure and `Domain=<shared domain>` except on a localhost setup
 * (browsers refuse a Domain of localhost and Secure cookies over plain http).
 */
import type { CookieOptions } from 'hono/utils/cookie';
import { isLocalhostDomain } from '../http/origins.js';

export const SESSION_COOKIE = 'xv_session';
export const MFA_COOKIE = 'xv_mfa';
export const ORG_COOKIE = 'xv_org';

export function sharedCookieOptions(sharedDomain: string, maxAgeSeconds?: number): CookieOptions {
  const local = isLocalhostDomain(sharedDomain);
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: !local,
    ...(local ? {} : { domain: sharedDomain }),
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}
