/**
 * @module http/csrf
 * Cookie-authenticated writes only from our own sites. A browser names the page's
 * origin on every cross-origin POST (`Origin`) and says where a request comes from
 * (`Sec-Fetch-Site`); a write that carries cookies from anywhere else is refused.
 * Requests without cookies (bearer tokens, scripts) cannot ride a user's session,
 * so they pass, except on the forms that start a session (`sameSiteOnly`): there a
 * foreign page could sign the visitor in to an account of its choosing (login CSRF).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { platformErrors } from '../errors.js';
import { requestHeader } from './node-response.js';
import { isXvOrigin } from './origins.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfOptions {
  sharedDomain: string;
  /** The service's own public origin, always allowed. */
  ownOrigin?: string;
  /** The other XV services' origins at their configured URLs, allowed too. */
  allowedOrigins?: readonly string[];
}

export function csrfProtection(options: CsrfOptions): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || !requestHeader(c, 'cookie')) return next();
    refuseCrossSite(c, options);
    return next();
  };
}

/**
 * For the forms that start a session (sign-in, registration): writes from other
 * sites are refused with or without cookies. A client that sends neither `Origin`
 * nor `Sec-Fetch-Site` (curl, the CLI, a server) is no browser and passes.
 */
export function sameSiteOnly(options: CsrfOptions): MiddlewareHandler {
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) refuseCrossSite(c, options);
    return next();
  };
}

/** Throws 403 `forbidden_origin` when the browser says the request comes from a site that is not XV's. */
function refuseCrossSite(c: Context, { sharedDomain, ownOrigin, allowedOrigins }: CsrfOptions) {
  const origin = c.req.header('origin');
  // A privacy-minded page may still send `Origin: null`; the browser's own
  // same-origin verdict then decides.
  if (origin === 'null' && c.req.header('sec-fetch-site') === 'same-origin') return;
  if (origin !== undefined) {
    if (origin !== ownOrigin && !isXvOrigin(origin, { sharedDomain, allowedOrigins: allowedOrigins ?? [] }))
      throw platformErrors.forbidden_origin();
  } else if (c.req.header('sec-fetch-site') === 'cross-site') {
    throw platformErrors.forbidden_origin();
  }
}
