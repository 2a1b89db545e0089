/**
 * @module http/cookies
 * The attributes XV's shared cookies carry: HttpOnly, SameSite=Lax, Secure and
 * `Domain=<shared domain>` except on a localhost setup (browsers refuse a Domain
 * of localhost and Secure cookies over plain http).
 */
import type { CookieOptions } from 'hono/utils/cookie';
import { isLocalhostDomain } from './origins.js';

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
