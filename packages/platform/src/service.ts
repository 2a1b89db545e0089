/**
 * @module service
 * What a service is: a name, its own settings, its migrations and a `setup` that
 * adds its routes to the platform app. `buildService` assembles one (tests use it
 * directly); `runService` is every service's entry point: it serves on the
 * configured port and shuts down gracefully on SIGTERM, SIGINT, or when the
 * launcher that started it goes away.
 */
import { collectDefaultMetrics } from 'prom-client';
import { loadInternalToken } from './auth/internal.js';
import { IdentityMemberships } from './auth/memberships.js';
import { RevocationWatch } from './auth/revocations.js';
import { type AnyDatabase, type Database, openDatabase } from './db/database.js';
import { type Migrations, migrate } from './db/migrations.js';
import { type App, createApp } from './http/app.js';
import { type RouteRecord, recordRouteSources } from './http/route-map.js';
import { listen } from './http/server.js';
import { SsoClient } from './http/sso.js';
import { createLogger, type Logger } from './logger.js';
import { SERVICES, type ServiceName } from './services.js';
import { loadPlatformSettings, type PlatformSettings } from './settings/platform.js';
import { loadSettings, type Settings, SettingsError, type SettingsSpec } from './settings/settings.js';

type Env = Record<string, string | undefined>;

export interface ServiceContext<Own = unknown, DB = unknown> {
  settings: PlatformSettings;
  /** The service's own settings. */
  config: Own;
  /** The service's own database, typed by its tables. */
  database: Database<DB>;
  logger: Logger;
  sso: SsoClient;
  /**
   * Identity's reports that access was taken away, kept open by one long-poll per
   * process; the SSO, service-token and membership caches follow it. Absent in
   * identity itself, which reads its own counter.
   */
  revocations: RevocationWatch | undefined;
  /** Whether a person is still a member of an organization, asked of identity (auth/memberships.ts). */
  memberships: IdentityMemberships;
  /** The platform's internal credential (auth/internal.ts). */
  internalToken: string;
  /** Aborted when the service starts shutting down: requests that wait (long-polls) answer at once. */
  stopping: AbortSignal;
  /** Registers work to do on shutdown (stop timers, close clients), run in reverse order. */
  onClose(task: () => unknown): void;
}

export interface ServiceDefinition<S extends SettingsSpec = SettingsSpec, DB = unknown> {
  name: ServiceName;
  description: string;
  settings?: S;
  migrations: Migrations;
  /** Runs on the opened database before migrations, e.g. to load a SQLite extension its tables need. */
  prepareDatabase?(database: Database<DB>): void | Promise<void>;
  setup(app: App, context: ServiceContext<Settings<S>, DB>): void | Promise<void>;
}

/**
 * Defines a service over its tables: `defineService<Tables>()({ name, settings, … })`.
 * The tables are named explicitly and the settings inferred, hence the two calls
 * (TypeScript cannot infer one type argument and take the other).
 */
export function defineService<DB = unknown>() {
  return <S extends SettingsSpec = Record<never, never>>(
    definition: ServiceDefinition<S, DB>,
  ): ServiceDefinition<S, DB> => definition;
}

export interface BuildOptions {
  env?: Env;
  /** Use this database instead of opening the configured one (it is not closed by the service). */
  database?: AnyDatabase;
  logger?: Logger;
  /** Record which file registers each route, with paths relative to this folder (`npm run docs`). */
  recordRoutesFrom?: string;
}

export interface BuiltService<Own = unknown, DB = unknown> {
  app: App;
  context: ServiceContext<Own, DB>;
  /** Where each route was registered, when `recordRoutesFrom` was given. */
  routes: RouteRecord[];
  /** Marks the start of a shutdown (aborts `context.stopping`); call it before closing the HTTP server. */
  beginShutdown(): void;
  close(): Promise<void>;
}

/**
 * The service's own database as its settings name it (URL, schema, pool size): what
 * the service opens, and what operator commands open when they work on it directly.
 */
export function openServiceDatabase<DB = unknown>(settings: PlatformSettings): Promise<Database<DB>> {
  return openDatabase<DB>({
    service: settings.service,
    url: settings.serviceDatabaseUrl,
    dataDir: settings.dataDir,
    schema: settings.databaseSchema,
    poolSize: settings.databasePoolSize,
  });
}

export async function buildService<S extends SettingsSpec, DB>(
  definition: ServiceDefinition<S, DB>,
  options: BuildOptions = {},
): Promise<BuiltService<Settings<S>, DB>> {
  const env = options.env ?? process.env;
  const settings = loadPlatformSettings(definition.name, env);
  const config = loadSettings(definition.settings ?? ({} as S), env);
  const logger = options.logger ?? createLogger(definition.name, settings.logLevel);
  const database: Database<DB> = options.database ?? (await openServiceDatabase<DB>(settings));
  const closers: (() => unknown)[] = [];
  if (!options.database) closers.push(() => database.close());
  const stopping = new AbortController();
  const beginShutdown = () => stopping.abort();
  const close = async () => {
    beginShutdown();
    for (const task of closers.splice(0).reverse()) await task();
  };
  try {
    await definition.prepareDatabase?.(database);
    await migrate(database, definition.migrations);
    const identityUrl = settings.services.identity.url;
    const internalToken = loadInternalToken(settings);
    const revocations =
      definition.name === 'identity' ? undefined : new RevocationWatch({ identityUrl, logger });
    if (revocations) {
      revocations.start();
      // Identity shuts down with the rest of the platform: losing it then is no news worth a warning.
      stopping.signal.addEventListener('abort', () => revocations.stop(), { once: true });
      closers.push(() => revocations.stop());
    }
    const context: ServiceContext<Settings<S>, DB> = {
      settings,
      config,
      database,
      logger,
      sso: new SsoClient({ identityUrl, revocations }),
      revocations,
      memberships: new IdentityMemberships({ identityUrl, internalToken, revocations }),
      internalToken,
      stopping: stopping.signal,
      onClose: (task) => closers.push(task),
    };
    const app = createApp({
      service: definition.name,
      title: `XV ${SERVICES[definition.name].title}`,
      description: definition.description,
      settings,
      database,
      logger,
    });
    const routes = options.recordRoutesFrom ? recordRouteSources(app, options.recordRoutesFrom) : [];
    await definition.setup(app, context);
    return { app, context, routes, beginShutdown, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The entry point of a service process. */
export async function runService<S extends SettingsSpec, DB>(
  definition: ServiceDefinition<S, DB>,
): Promise<void> {
  let built: BuiltService<Settings<S>, DB>;
  try {
    built = await buildService(definition);
  } catch (error) {
    if (error instanceof SettingsError) {
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const { app, context, beginShutdown, close } = built;
  const { settings, logger } = context;
  collectDefaultMetrics({ prefix: 'xv_' });
  const server = await listen(app, settings.services[definition.name].port, settings.host);
  logger.info({ port: server.port, url: settings.services[definition.name].url }, 'listening');

  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'shutting down');
    beginShutdown();
    await server.close();
    await close();
    logger.info('stopped');
    logger.flush?.();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  // Started by the launcher over IPC: when the launcher dies, so do we (no orphans).
  if (process.send) process.once('disconnect', () => void shutdown('launcher gone'));
}
