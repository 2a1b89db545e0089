/**
 * @module http/csrf
 * Cookie-authenticated writes only from our own sites. A browser names the page's
 * origin on every cross-origin POST (`Origin`) and says where a request comes from
 * (`Sec-Fetch-Site`); a write that carries cookies from anywhere else is refused.
 * Requests without cookies (bearer tokens, scripts) cannot ride a user's session,
 * so they pass.
 */
import type { MiddlewareHandler } from 'hono';
import { platformErrors } from './errors.js';
import { isSharedDomainOrigin } from './origins.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfOptions {
  sharedDomain: string;
  /** The service's own public origin, always allowed. */
  ownOrigin?: string;
}

export function csrfProtection({ sharedDomain, ownOrigin }: CsrfOptions): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || !c.req.header('cookie')) return next();
    const origin = c.req.header('origin');
    // A privacy-minded page may still send `Origin: null`; the browser's own
    // same-origin verdict then decides.
    if (origin === 'null' && c.req.header('sec-fetch-site') === 'same-origin') return next();
    if (origin !== undefined) {
      if (origin !== ownOrigin && !isSharedDomainOrigin(origin, sharedDomain))
        throw platformErrors.forbidden_origin();
    } else if (c.req.header('sec-fetch-site') === 'cross-site') {
      throw platformErrors.forbidden_origin();
    }
    return next();
  };
}
