/**
 * @module redirects
 * Where a browser may be sent after signing in or stepping up: an XV origin, that
 * is this service, another service at its configured URL, or an https host equal
 * to or under the shared domain (on a localhost setup, any loopback site). A target is
 * parsed with the URL parser against this service's origin, and so is the form it
 * takes once fully percent-decoded: both must land on the same XV origin, and
 * neither may carry backslashes, control characters, userinfo, another scheme or a
 * path that a browser would read as `//host`. Anything else is refused, and the
 * caller falls back to its default page.
 */
import { isHostUnderDomain } from '@xv/platform/http';

const MAX_LENGTH = 2048;
/** Decoding rounds before a target is deemed too nested to be honest. */
const MAX_DECODES = 4;
// Whitespace, control characters and backslashes: browsers "repair" them in ways that move the host.
const SUSPICIOUS_RAW = /[\s\\]|\p{Cc}/u;
// Once decoded, a space is only a space; control characters and backslashes still move hosts.
const SUSPICIOUS_DECODED = /\\|\p{Cc}/u;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface RedirectPolicy {
  /** This service's public origin: relative targets resolve against it. */
  ownOrigin: string;
  /** The other XV services' origins, as configured. */
  allowedOrigins: readonly string[];
  sharedDomain: string;
}

/**
 * The target, normalized (a path for this service's own pages, else an absolute URL),
 * or null when it does not lead to an XV origin.
 */
export function safeRedirect(target: unknown, policy: RedirectPolicy): string | null {
  if (typeof target !== 'string' || target.length === 0 || target.length > MAX_LENGTH) return null;
  if (SUSPICIOUS_RAW.test(target)) return null;
  const decoded = fullyDecoded(target);
  if (decoded === null || SUSPICIOUS_DECODED.test(decoded)) return null;
  const url = resolve(target, policy);
  const meant = resolve(decoded, policy);
  if (!url || !meant || url.origin !== meant.origin) return null;
  if (target.startsWith('/')) return `${url.pathname}${url.search}${url.hash}`;
  return url.href;
}

/** Percent-decodes until nothing changes; null when a round is malformed or there are too many. */
function fullyDecoded(value: string): string | null {
  let current = value;
  for (let round = 0; round <= MAX_DECODES; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/** The URL a target names when it leads to an XV origin, else null. */
function resolve(value: string, policy: RedirectPolicy): URL | null {
  let url: URL | null;
  if (value.startsWith('/')) {
    // `//host` is another host; `/.//host` is a path the URL parser normalizes to `//host`.
    if (value.startsWith('//')) return null;
    url = tryUrl(value, policy.ownOrigin);
    if (!url || url.origin !== policy.ownOrigin) return null;
  } else {
    url = tryUrl(value);
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
    // The scheme must be followed by `//`: `https:evil.test` parses, but is not what it seems.
    if (!value.toLowerCase().startsWith(`${url.protocol}//`)) return null;
  }
  if (url.username || url.password) return null;
  // A path a browser would take for `//host` once this URL is written out as a relative one.
  if (url.pathname.startsWith('//')) return null;
  return isXvOrigin(url, policy) ? url : null;
}

function isXvOrigin(url: URL, policy: RedirectPolicy): boolean {
  if (url.origin === policy.ownOrigin || policy.allowedOrigins.includes(url.origin)) return true;
  const host = url.hostname.toLowerCase();
  // A loopback host counts only on a localhost setup: elsewhere it is not an XV site.
  if (!isHostUnderDomain(host, policy.sharedDomain)) return false;
  return url.protocol === 'https:' || LOOPBACK.has(host);
}

function tryUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}
