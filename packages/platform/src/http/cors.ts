/**
 * @module http/cors
 * Two CORS policies: credentialed calls from sites under the shared domain (the
 * session cookie travels), and public "any origin" endpoints that never use cookies.
 *
 * Preflights go to Hono's CORS middleware. Actual requests get their headers added
 * to the handler's response after it is made: setting them earlier, as Hono's
 * middleware does, builds the response object twice, which costs `GET /api/session`
 * (the platform's hottest call) a third of its throughput. They go with the
 * platform's own headers (`node-response.ts`), into the object Node writes.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { requestHeader, responseHeadersOf } from './node-response.js';
import { isSharedDomainOrigin } from './origins.js';

const ALLOW_HEADERS = ['Content-Type', 'Authorization', 'X-Request-Id', 'X-Agent-Session'];
const EXPOSE_HEADERS = ['X-Request-Id', 'Retry-After'];

interface CorsPolicy {
  /** The value of `Access-Control-Allow-Origin` for a request from `origin`, or null to grant nothing. */
  allowOrigin(origin: string): string | null;
  credentials: boolean;
  methods: string[];
}

function corsPolicy(policy: CorsPolicy): MiddlewareHandler {
  const preflight = cors({
    origin: (origin) => policy.allowOrigin(origin),
    credentials: policy.credentials,
    allowMethods: policy.methods,
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: 600,
  });
  const exposed = EXPOSE_HEADERS.join(',');
  // A public policy answers every caller alike, browser or not; a credentialed one names the origin.
  const anyOrigin = policy.allowOrigin('') === '*';
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    const origin = requestHeader(c, 'origin');
    const allowed = anyOrigin ? '*' : origin ? policy.allowOrigin(origin) : null;
    const headers = responseHeadersOf(c) ?? c.res.headers;
    if (allowed) {
      headers.set('Access-Control-Allow-Origin', allowed);
      if (policy.credentials) headers.set('Access-Control-Allow-Credentials', 'true');
      headers.set('Access-Control-Expose-Headers', exposed);
    }
    // The answer differs by Origin, so shared caches must keep one copy per origin.
    if (!anyOrigin) headers.append('Vary', 'Origin');
  };
}

export function sharedDomainCors(sharedDomain: string): MiddlewareHandler {
  return corsPolicy({
    allowOrigin: (origin) => (isSharedDomainOrigin(origin, sharedDomain) ? origin : null),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });
}

export function publicCors(): MiddlewareHandler {
  return corsPolicy({ allowOrigin: () => '*', credentials: false, methods: ['GET', 'HEAD', 'POST'] });
}
