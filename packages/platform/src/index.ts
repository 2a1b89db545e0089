/**
 * @module @xv/platform
 * Everything the XV services share: settings, database, HTTP app, errors, ids,
 * token hashing, SSO, rate limits and the service runner.
 */

export { createRoute, z } from '@hono/zod-openapi';
export * from './ai/index.js';
export * from './auth/cookies.js';
export * from './auth/guard.js';
export * from './auth/internal.js';
export * from './auth/memberships.js';
export * from './auth/revocations.js';
export * from './auth/sso.js';
export * from './auth/ttl-cache.js';
export * from './canonical-json.js';
export * from './crypto.js';
export * from './db/database.js';
export * from './db/migrations.js';
export * from './http/app.js';
export * from './http/cors.js';
export * from './http/csp.js';
export * from './http/csrf.js';
export * from './http/errors.js';
export * from './http/origins.js';
export * from './http/server.js';
export * from './ids.js';
export * from './kek.js';
export * from './logger.js';
export * from './public-organizations.js';
export * from './ratelimit.js';
export * from './secret-file.js';
export * from './service.js';
export * from './services.js';
export * from './settings/platform.js';
export * from './settings/settings.js';
