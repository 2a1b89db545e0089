/**
 * @module http/csp
 * The Content-Security-Policy of every response. A script runs only when it
 * comes from this origin or when its tag carries the request's nonce, a fresh
 * 128-bit value per page: markup an attacker slips into a page (a `<script>`,
 * an `onerror="…"` attribute) cannot run, since it cannot know the nonce.
 *
 * ```tsx
 * app.get('/page', (c) => c.html(<script nonce={cspNonce(c)}>{raw(PAGE_SCRIPT)}</script>));
 * ```
 *
 * Styles follow the same rule: stylesheets come from this origin (the pages' bundles
 * under `/assets/`) or carry the nonce, and no `style` attribute applies, so injected
 * markup cannot restyle a page either (to overlay a fake form, say).
 *
 * A JSON answer gets a constant policy that allows nothing at all, and no nonce.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';

/** The per-request values this module keeps on the context. */
export interface CspVariables {
  /** Null until a page asks for it (`cspNonce`): JSON answers need none. */
  cspNonce: string | null;
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

/**
 * A JSON answer is no document: nothing in it runs or loads, so it carries one
 * constant policy that forbids everything, built once, and needs no nonce.
 */
export const JSON_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";
const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;

/**
 * The policy of one answer, given its content type: the constant JSON policy, or
 * (pages, and anything else a browser may render) the page policy with this
 * request's nonce and the sources the route added.
 */
export function contentSecurityPolicy(options: ContentSecurityPolicyOptions) {
  const formAction = ["'self'", ...options.formAction].join(' ');
  return (c: Context, contentType: string | undefined): string => {
    const allowed: Partial<Record<CspFetchDirective, string[]>> | undefined = c.get('cspAllowed');
    if (!allowed && contentType !== undefined && JSON_TYPE.test(contentType))
      return JSON_CONTENT_SECURITY_POLICY;
    const nonce = cspNonce(c);
    const sources = (directive: CspFetchDirective, base: string[]) =>
      [...base, ...(allowed?.[directive] ?? [])].join(' ');
    return [
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
    ].join('; ');
  };
}

/**
 * Nonces are cut from one block of random bytes per 256 of them: `randomBytes(16)`
 * per request cost ~8 µs (one call into the system's generator each), a slice ~0.2 µs.
 * Every nonce is still 128 bits from the CSPRNG, and none is handed out twice.
 */
const NONCE_BYTES = 16;
let randomBlock = Buffer.alloc(0);
let blockOffset = 0;
function freshNonce(): string {
  if (blockOffset + NONCE_BYTES > randomBlock.length) {
    randomBlock = randomBytes(NONCE_BYTES * 256);
    blockOffset = 0;
  }
  const nonce = randomBlock.toString('base64', blockOffset, blockOffset + NONCE_BYTES);
  blockOffset += NONCE_BYTES;
  return nonce;
}

/** The nonce a `<script>` tag of this response must carry to run, made on first use. */
export function cspNonce(c: Context): string {
  const nonce: unknown = c.get('cspNonce');
  if (typeof nonce === 'string') return nonce;
  if (nonce !== null) throw new Error('cspNonce: the request did not pass through the platform app');
  const fresh = freshNonce();
  c.set('cspNonce', fresh);
  return fresh;
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
