/**
 * @module migrations
 * The agent service's schema, in order. Never edit a migration that has shipped; add one.
 */
import type { Migrations } from '@xv/platform';
import { sessions } from './0001_sessions.js';
import { owners } from './0002_owners.js';

export const migrations: Migrations = {
  '0001_sessions': sessions,
  '0002_owners': owners,
};
