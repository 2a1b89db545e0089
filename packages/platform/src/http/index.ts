/**
 * @module @xv/platform/http
 * The HTTP side of every service: the Hono app and its middleware (CSP, CORS,
 * CSRF, rate limits), who is calling (SSO sessions, service tokens, the internal
 * credential), shared cookies and OpenAPI route helpers. Only a service's
 * `src/http/` (and its wiring) imports this module.
 */

export { createRoute, z } from '@hono/zod-openapi';
export * from './app.js';
export * from './cookies.js';
export * from './cors.js';
export * from './csp.js';
export * from './csrf.js';
export * from './guard.js';
export * from './internal.js';
export * from './openapi.js';
export * from './origins.js';
export * from './preferences.js';
export * from './rate-limit.js';
export * from './route-map.js';
export * from './server.js';
export * from './sso.js';
