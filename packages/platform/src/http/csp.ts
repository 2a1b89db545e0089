/**
 * @module http/csp
 * The Content-Security-Policy of every response. A script runs only when it
 * comes from this origin or when its tag carries the request's nonce, a fresh
 * 128-bit value per request: markup an attacker slips into a page (a `<script>`,
 * an `onerror="…"` attribute) cannot run, since it cannot know the nonce.
 *
 * ```tsx
 * app.get('/page', (c) => c.html(<script nonce={cspNonce(c)}>{raw(PAGE_SCRIPT)}</script>));
 * ```
 *
 * Styles follow the same rule: stylesheets come from this origin (the pages' bundles
 * under `/assets/`) or carry the nonce, and no `style` attribute applies, so injected
 * markup cannot restyle a page either (to overlay a fake form, say).
 */
import { randomBytes } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';

/** The per-request values this module keeps on the context. */
export interface CspVariables {
  cspNonce: string;
  cspAllowed: Partial<Record<CspFetchDirective, string[]>> | undefined;
}

/** The directives a route may widen for its own response (for one third-party widget, say). */
export type CspFetchDirective = 'script-src' | 'frame-src' | 'connect-src' | 'img-src';

export interface ContentSecurityPolicyOptions {
  /** Where forms may post (and redirect) besides this origin. */
  formAction: string[];
}

/** Only a scheme and host (with an optional port or `*.` label): no keyword, no separator, nothing inline. */
const HOST_SOURCE = /^https:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i;

export function contentSecurityPolicy(options: ContentSecurityPolicyOptions): MiddlewareHandler {
  const formAction = ["'self'", ...options.formAction].join(' ');
  return async (c, next) => {
    const nonce = randomBytes(16).toString('base64');
    c.set('cspNonce', nonce);
    await next();
    const allowed: Partial<Record<CspFetchDirective, string[]>> = c.get('cspAllowed') ?? {};
    const sources = (directive: CspFetchDirective, base: string[]) =>
      [...base, ...(allowed[directive] ?? [])].join(' ');
    c.res.headers.set(
      'Content-Security-Policy',
      [
        "default-src 'self'",
        `script-src ${sources('script-src', ["'self'", `'nonce-${nonce}'`])}`,
        `style-src 'self' 'nonce-${nonce}'`,
        `img-src ${sources('img-src', ["'self'", 'data:'])}`,
        `connect-src ${sources('connect-src', ["'self'"])}`,
        `frame-src ${sources('frame-src', ["'self'"])}`,
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        `form-action ${formAction}`,
      ].join('; '),
    );
  };
}

/** The nonce a `<script>` tag of this response must carry to run. */
export function cspNonce(c: Context): string {
  const nonce: unknown = c.get('cspNonce');
  if (typeof nonce !== 'string')
    throw new Error('cspNonce: the request did not pass through the platform app');
  return nonce;
}

/**
 * Lets this response load from `sources` under `directive` as well, e.g. a
 * challenge widget's script and frame. Only https hosts are accepted: a keyword
 * such as `'unsafe-inline'` would undo the policy.
 */
export function allowInContentSecurityPolicy(c: Context, directive: CspFetchDirective, sources: string[]) {
  for (const source of sources)
    if (!HOST_SOURCE.test(source)) throw new Error(`CSP: ${source} is not an https host source`);
  const allowed: Partial<Record<CspFetchDirective, string[]>> = { ...c.get('cspAllowed') };
  allowed[directive] = [...(allowed[directive] ?? []), ...sources];
  c.set('cspAllowed', allowed);
}
