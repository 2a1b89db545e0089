/**
 * @module http/origins
 * Which browser origins belong to XV: hosts under the shared domain (any port),
 * and on a localhost setup also the loopback addresses.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLocalhostDomain(sharedDomain: string): boolean {
  return sharedDomain === 'localhost';
}

/** True when `host` is the shared domain itself or a subdomain of it (an exact suffix match on labels). */
export function isHostUnderDomain(host: string, sharedDomain: string): boolean {
  const h = host.toLowerCase();
  if (isLocalhostDomain(sharedDomain) && LOOPBACK_HOSTS.has(h)) return true;
  return h === sharedDomain || h.endsWith(`.${sharedDomain}`);
}

/** True when a browser `Origin` header names a site under the shared domain. */
export function isSharedDomainOrigin(origin: string | undefined | null, sharedDomain: string): boolean {
  if (!origin || origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false; // paths, userinfo and other decorations are not origins
  const secureRequired = !isLocalhostDomain(sharedDomain);
  if (url.protocol !== 'https:' && (secureRequired || url.protocol !== 'http:')) return false;
  return isHostUnderDomain(url.hostname, sharedDomain);
}

/** The origins of XV's services at their configured URLs (`XV_<SERVICE>_URL`). */
export function serviceOrigins(services: Record<string, { url: string }>): string[] {
  return [...new Set(Object.values(services).map((service) => new URL(service.url).origin))];
}

/**
 * True when a browser `Origin` header names an XV site: one of `allowedOrigins` (the
 * services' configured origins), or a site under the shared domain.
 */
export function isXvOrigin(
  origin: string | undefined | null,
  options: { sharedDomain: string; allowedOrigins?: readonly string[] },
): boolean {
  if (!origin || origin === 'null') return false;
  return (
    options.allowedOrigins?.includes(origin) === true || isSharedDomainOrigin(origin, options.sharedDomain)
  );
}

/** CSP source expressions for every site under the shared domain. */
export function sharedDomainSources(sharedDomain: string): string[] {
  if (isLocalhostDomain(sharedDomain)) return ['http://localhost:*', 'http://127.0.0.1:*'];
  return [`https://${sharedDomain}`, `https://*.${sharedDomain}`];
}
