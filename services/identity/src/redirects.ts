/**
 * @module redirects
 * Where a browser may be sent after signing in or stepping up: a path on this
 * service, or an http(s) URL whose host is the shared domain, one of its
 * subdomains, or localhost. Everything else (other hosts, `//host`, userinfo,
 * backslashes, control characters, other schemes) is refused, so the login page
 * can never be turned into an open redirect.
 */
import { isHostUnderDomain } from '@xv/platform';

const MAX_LENGTH = 2048;
// Whitespace, control characters and backslashes: browsers "repair" them in ways that move the host.
const SUSPICIOUS = /[\s\\]|\p{Cc}/u;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The redirect target, normalized, or null when it is not allowed. */
export function safeRedirect(value: unknown, sharedDomain: string, ownOrigin: string): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (SUSPICIOUS.test(value)) return null;
  if (value.startsWith('/')) {
    if (value.startsWith('//')) return null;
    const url = tryUrl(value, ownOrigin);
    if (!url || url.origin !== ownOrigin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  }
  const url = tryUrl(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  // The scheme must be followed by `//`: `https:evil.test` parses, but is not what it seems.
  if (!value.toLowerCase().startsWith(`${url.protocol}//`)) return null;
  if (url.username || url.password) return null;
  const host = url.hostname.toLowerCase();
  const loopback = LOOPBACK.has(host);
  if (!(host === 'localhost' || isHostUnderDomain(host, sharedDomain))) return null;
  if (url.protocol === 'http:' && !loopback) return null;
  return url.href;
}

function tryUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}
