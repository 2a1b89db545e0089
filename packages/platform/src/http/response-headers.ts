/**
 * @module http/response-headers
 * The headers the platform gives every answer: a request id, the security headers
 * and the Content-Security-Policy (`csp.ts`). They are collected per request and
 * added once, after every middleware (`node-response.ts`): the security headers are
 * a constant set built once, the CSP depends only on the answer's content type.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { type ContentSecurityPolicyOptions, contentSecurityPolicy } from './csp.js';
import { ResponseHeaders, requestHeader, sendResponseHeaders } from './node-response.js';

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
const SECURITY_HEADER_NAMES = new Set(Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()));

/** An incoming `X-Request-Id` is kept when it is 1–128 word characters or dashes; otherwise one is made. */
const REQUEST_ID = /^[\w-]{1,128}$/;

type PolicyOf = ReturnType<typeof contentSecurityPolicy>;

/** One answer's platform headers: the CSP is chosen once the content type is known. */
class PlatformHeaders extends ResponseHeaders {
  constructor(
    private readonly c: Context,
    private readonly policyOf: PolicyOf,
    requestId: string,
  ) {
    super(SECURITY_HEADERS, SECURITY_HEADER_NAMES);
    this.set('X-Request-Id', requestId);
    // Says which framework answers: never sent.
    this.remove('X-Powered-By');
  }

  protected override decide(contentType: string | undefined) {
    this.set('Content-Security-Policy', this.policyOf(this.c, contentType));
  }
}

export interface ResponseHeadersOptions {
  contentSecurityPolicy: ContentSecurityPolicyOptions;
}

/**
 * Sets `requestId`, an unused nonce and the answer's `responseHeaders` on the
 * context; sends the headers when every middleware is done.
 */
export function platformResponseHeaders(options: ResponseHeadersOptions): MiddlewareHandler {
  const policyOf = contentSecurityPolicy(options.contentSecurityPolicy);
  return async (c, next) => {
    const given = requestHeader(c, 'x-request-id');
    const requestId = given !== undefined && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    const headers = new PlatformHeaders(c, policyOf, requestId);
    c.set('requestId', requestId);
    c.set('cspNonce', null);
    c.set('responseHeaders', headers);
    await next();
    sendResponseHeaders(c, headers);
  };
}
