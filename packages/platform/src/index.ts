/**
 * @module @xv/platform
 * What every part of an XV service may use, HTTP or not: settings, the database
 * and migrations, the error catalogue, ids, hashing and key encryption, logs,
 * rate limiters, who a caller is (principals, memberships, revocations), and the
 * Merkle proofs and relayer credential of anchoring.
 *
 * The rest is in subpath modules: `@xv/platform/http` (Hono app, guards, OpenAPI
 * helpers), `@xv/platform/pages` (page layout, design tokens, browser bundles),
 * `@xv/platform/service` (defining and running a service), `@xv/platform/ai`
 * (model catalogue and chat), `@xv/platform/testing`.
 */

export { z } from 'zod';
export * from './anchoring.js';
export * from './auth/cookies.js';
export * from './auth/internal.js';
export * from './auth/memberships.js';
export * from './auth/principals.js';
export * from './auth/revocations.js';
export * from './auth/ttl-cache.js';
export * from './canonical-json.js';
export * from './crypto.js';
export * from './db/compiled-query.js';
export * from './db/database.js';
export * from './db/group-commit.js';
export * from './db/migrations.js';
export * from './errors.js';
export * from './ids.js';
export * from './kek.js';
export * from './knowledge-search.js';
export * from './logger.js';
export * from './public-organizations.js';
export * from './ratelimit.js';
export * from './secret-file.js';
export * from './services.js';
export * from './settings/platform.js';
export * from './settings/settings.js';
