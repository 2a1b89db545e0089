/**
 * @module http/cors
 * Two CORS policies: credentialed calls from sites under the shared domain (the
 * session cookie travels), and public "any origin" endpoints that never use cookies.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { isSharedDomainOrigin } from './origins.js';

const ALLOW_HEADERS = ['Content-Type', 'Authorization', 'X-Request-Id', 'X-Agent-Session'];
const EXPOSE_HEADERS = ['X-Request-Id', 'Retry-After'];

export function sharedDomainCors(sharedDomain: string): MiddlewareHandler {
  return cors({
    origin: (origin) => (isSharedDomainOrigin(origin, sharedDomain) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: 600,
  });
}

export function publicCors(): MiddlewareHandler {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'POST'],
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: 600,
  });
}
