/**
 * @module migrations
 * The agent service's schema, in order. Never edit a migration that has shipped; add one.
 */
import type { Migrations } from '@xv/platform';
import { sessions } from './0001_sessions.js';

export const migrations: Migrations = {
  '0001_sessions': sessions,
};
