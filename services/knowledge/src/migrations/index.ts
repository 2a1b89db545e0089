/**
 * @module migrations
 * The knowledge service's schema, in order. Never edit a migration that has shipped; add one.
 */
import type { Migrations } from '@xv/platform';

export const migrations: Migrations = {};
