/**
 * @module settings/platform
 * Settings every service shares: where data lives, the shared domain, the address
 * of every service, and the database of the running service.
 */
import { z } from 'zod';
import { SERVICE_NAMES, SERVICES, type ServiceName } from '../services.js';
import {
  databaseUrl,
  flag,
  hostname,
  httpUrl,
  loadSettings,
  port,
  type Settings,
  setting,
} from './settings.js';

function serviceAddressSpec(name: ServiceName) {
  const { envKey, defaultPort } = SERVICES[name];
  return {
    port: setting(`XV_${envKey}_PORT`, port(defaultPort)),
    url: setting(`XV_${envKey}_URL`, httpUrl().optional()),
  };
}

export const platformSettingsSpec = {
  dataDir: setting('XV_DATA_DIR', z.string().min(1).default('./data')),
  sharedDomain: setting('XV_SHARED_DOMAIN', hostname().default('localhost')),
  host: setting('XV_HOST', z.string().min(1).default('127.0.0.1')),
  logLevel: setting(
    'XV_LOG_LEVEL',
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  bodyLimitBytes: setting(
    'XV_BODY_LIMIT_BYTES',
    z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
  ),
  databaseUrl: setting('DATABASE_URL', databaseUrl(), { secret: true }),
  /** PostgreSQL connections one process keeps at most (instances × services × this must fit the server). */
  databasePoolSize: setting('XV_DATABASE_POOL_SIZE', z.coerce.number().int().min(1).max(1000).default(10)),
  trustProxy: setting('XV_TRUST_PROXY', flag(false)),
  /**
   * The credential services use for identity's internal questions (auth/internal.ts);
   * unset: generated once into XV_DATA_DIR/internal-token. Every instance needs the same value.
   */
  internalToken: setting(
    'XV_INTERNAL_TOKEN',
    z.string().trim().min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
    { secret: true },
  ),
};

export interface ServiceAddress {
  port: number;
  /** Public base URL without a trailing slash. */
  url: string;
}

export type PlatformSettings = Settings<typeof platformSettingsSpec> & {
  service: ServiceName;
  /** Address of every service, so each can call the others. */
  services: Record<ServiceName, ServiceAddress>;
  /** Database of this service: its own `XV_<KEY>_DATABASE_URL`, else `DATABASE_URL`, else SQLite. */
  serviceDatabaseUrl: string | undefined;
  /** Its PostgreSQL schema: `XV_<KEY>_DATABASE_SCHEMA`, else the service's name. */
  databaseSchema: string;
};

type Env = Record<string, string | undefined>;

export function loadPlatformSettings(service: ServiceName, env: Env = process.env): PlatformSettings {
  const key = SERVICES[service].envKey;
  const base = loadSettings(
    {
      ...platformSettingsSpec,
      ownDatabaseUrl: setting(`XV_${key}_DATABASE_URL`, databaseUrl(), { secret: true }),
      databaseSchema: setting(
        `XV_${key}_DATABASE_SCHEMA`,
        z
          .string()
          .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lowercase PostgreSQL identifier')
          .default(service),
      ),
    },
    env,
  );
  const services = serviceAddresses(env);
  const { ownDatabaseUrl, ...rest } = base;
  return { ...rest, service, services, serviceDatabaseUrl: ownDatabaseUrl ?? rest.databaseUrl };
}

/** Where every service is reached: `XV_<KEY>_URL`, else `http://localhost:<XV_<KEY>_PORT>`. */
export function serviceAddresses(env: NodeJS.ProcessEnv = process.env): Record<ServiceName, ServiceAddress> {
  const services = {} as Record<ServiceName, ServiceAddress>;
  for (const name of SERVICE_NAMES) {
    const { port: p, url } = loadSettings(serviceAddressSpec(name), env);
    services[name] = { port: p, url: url ?? `http://localhost:${p}` };
  }
  return services;
}
