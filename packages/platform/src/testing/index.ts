/**
 * @module @xv/platform/testing
 * Test helpers: run a suite against every database XV supports (SQLite always,
 * PostgreSQL when `XV_TEST_DATABASE_URL` is set, each run in a fresh schema), and
 * start a service on a real HTTP port.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { type AnyDatabase, type Database, type DialectName, openDatabase } from '../db/database.js';
import { listen } from '../http/server.js';
import type { Logger } from '../logger.js';
import { type BuiltService, buildService, type ServiceDefinition } from '../service.js';
import { SERVICES } from '../services.js';
import type { Settings, SettingsSpec } from '../settings/settings.js';

export interface DatabaseTarget {
  dialect: DialectName;
  /** Opens a fresh, empty database for `service`; it is dropped when the suite ends. */
  open<DB = unknown>(service: string): Promise<Database<DB>>;
}

/**
 * SQLite always, PostgreSQL too when `XV_TEST_DATABASE_URL` is set.
 * `XV_TEST_DATABASES=postgres` (or `sqlite`) narrows the list, e.g. for CI's second pass.
 */
export function testDatabaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [{ dialect: 'sqlite', open: openTempSqlite }];
  const url = process.env.XV_TEST_DATABASE_URL;
  if (url)
    targets.push({ dialect: 'postgres', open: <DB>(service: string) => openTempPostgres<DB>(url, service) });
  const only = process.env.XV_TEST_DATABASES?.split(',').map((s) => s.trim());
  return only ? targets.filter((t) => only.includes(t.dialect)) : targets;
}

/** Declares `body` once per database target, titled `title [sqlite]`, `title [postgres]`. */
export function describeEachDatabase(title: string, body: (target: DatabaseTarget) => void) {
  for (const target of testDatabaseTargets()) describe(`${title} [${target.dialect}]`, () => body(target));
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

export function tempDir(prefix = 'xv-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openTempSqlite<DB>(service: string): Promise<Database<DB>> {
  const database = await openDatabase<DB>({ service, dataDir: tempDir() });
  cleanups.push(() => database.close());
  return database;
}

async function openTempPostgres<DB>(url: string, service: string): Promise<Database<DB>> {
  const schema = `t_${service}_${randomBytes(6).toString('hex')}`;
  const database = await openDatabase<DB>({ service, url, schema, poolSize: 4 });
  cleanups.push(async () => {
    await database.pool?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await database.close();
  });
  return database;
}

/** Polls `probe` until it returns a value other than undefined; throws after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Repeats `probe` until `done` holds or `withinMs` has passed, and returns the last value: for promises such as
 * "refused within a second", where the caller asserts on what it got when the time ran out.
 */
export async function within<T>(
  withinMs: number,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Waits, when less than `marginMs` is left of the current time step (TOTP: 30 s), for the next one to begin: a
 * code typed now is then still inside the verifier's drift window when a slow machine gets it there.
 */
export async function clearOfTimeStepEnd(periodMs = 30_000, marginMs = 10_000): Promise<void> {
  const left = periodMs - (Date.now() % periodMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** A port free right now on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// A test often holds services of several kinds in one variable: by default a running service is one of any tables.
// biome-ignore lint/suspicious/noExplicitAny: the tables of a service the test does not look into
export interface RunningService<Own = unknown, DB = any> extends BuiltService<Own, DB> {
  url: string;
  /** `fetch` relative to the service's base URL. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** One internal credential for every service a test process starts, as one data folder gives them. */
const TEST_INTERNAL_TOKEN = randomBytes(32).toString('hex');

/** Builds a service on `database` and serves it on a free loopback port. */
export async function startService<S extends SettingsSpec, DB>(
  definition: ServiceDefinition<S, DB>,
  options: {
    database: AnyDatabase;
    env?: Record<string, string | undefined>;
    logger?: Logger;
    /** A port chosen beforehand (`freePort()`), when another service must know this one's URL first. */
    port?: number;
  },
): Promise<RunningService<Settings<S>, DB>> {
  const port = options.port ?? (await freePort());
  const key = SERVICES[definition.name].envKey;
  const url = `http://127.0.0.1:${port}`;
  const env = {
    XV_LOG_LEVEL: 'silent',
    XV_DATA_DIR: tempDir(),
    XV_INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    ...options.env,
    [`XV_${key}_PORT`]: String(port),
    [`XV_${key}_URL`]: url,
  };
  const built = await buildService(definition, {
    env,
    database: options.database,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const server = await listen(built.app, port, '127.0.0.1');
  let stopped: Promise<void> | undefined;
  const stop = () => {
    built.beginShutdown();
    stopped ??= server.close(1000).then(() => built.close());
    return stopped;
  };
  cleanups.push(stop);
  return {
    ...built,
    url,
    close: stop,
    fetch: (path, init) => fetch(`${url}${path}`, init),
  };
}
export * from './axe.js';
export * from './browser.js';
export * from './csp.js';
export * from './i18n.js';
export * from './model-server.js';
