/**
 * @module http/response-headers
 * The headers the platform gives every answer: a request id, the security headers
 * and the Content-Security-Policy (`csp.ts`). They are gathered in one place and
 * added once, after the handlers (`node-response.ts`): the security headers are a
 * constant set built once, the CSP depends only on the answer's content type.
 */
import type { MiddlewareHandler } from 'hono';
import { type ContentSecurityPolicyOptions, contentSecurityPolicy } from './csp.js';
import { type FinalHeaders, requestHeader, setFinalHeaders } from './node-response.js';

/**
 * What Hono's `secureHeaders` sends with the options the platform used
 * (`crossOriginResourcePolicy: false`, `crossOriginOpenerPolicy: 'same-origin'`,
 * `referrerPolicy: 'strict-origin-when-cross-origin'`), as one constant;
 * `response-headers.test.ts` holds it equal to the library's. `no-referrer` would
 * make browsers send `Origin: null` on form posts, which the CSRF check must
 * refuse; the origin (never the path) is all we reveal.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
};

/** An incoming `X-Request-Id` is kept when it is 1–128 word characters or dashes; otherwise one is made. */
const REQUEST_ID = /^[\w-]{1,128}$/;

const OWNED = new Set([
  ...Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()),
  'x-request-id',
  'content-security-policy',
  // Says which framework answers: never sent.
  'x-powered-by',
]);

export interface ResponseHeadersOptions {
  contentSecurityPolicy: ContentSecurityPolicyOptions;
}

/** Sets `requestId` and an unused nonce on the context; gives the answer its headers when the handlers are done. */
export function platformResponseHeaders(options: ResponseHeadersOptions): MiddlewareHandler {
  const policyOf = contentSecurityPolicy(options.contentSecurityPolicy);
  return async (c, next) => {
    const given = requestHeader(c, 'x-request-id');
    const requestId = given !== undefined && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    c.set('requestId', requestId);
    c.set('cspNonce', null);
    await next();
    const final: FinalHeaders = {
      owned: OWNED,
      values: (contentType) => ({
        ...SECURITY_HEADERS,
        'X-Request-Id': requestId,
        'Content-Security-Policy': policyOf(c, contentType),
      }),
    };
    setFinalHeaders(c, final);
  };
}
