/**
 * @module migrations
 * The trust service's schema, in order. Never edit a migration that has shipped; add one.
 */
import type { Migrations } from '@xv/platform';
import { trust } from './0001_trust.js';

export const migrations: Migrations = {
  '0001_trust': trust,
};
