/**
 * @module e2e/support/platform
 * The whole platform for end-to-end tests, each service in its own process as
 * production runs it: its own port, its own database (a SQLite file, or one
 * PostgreSQL schema per service shared by all its instances), every address wired
 * to every other, a throw-away anvil, and the scripted model server standing in
 * for the hosted LLM. Any service can run as several instances, and any instance
 * can be killed (`SIGKILL` included) and restarted.
 *
 * A service runs as the launcher (`npm start`) runs it: its own `node` process with
 * the same environment. By default from its TypeScript sources through tsx (no build
 * needed); with `compiled: true` from its compiled `dist/main.js`, exactly the
 * launcher's command, for every service whose build is up to date with its sources
 * (CI builds before it tests; a stale build in a working copy falls back to the
 * sources). `instance.entry` says which one ran.
 *
 * ```ts
 * const platform = await startPlatform({ instances: { identity: 2 } });
 * platform.url('identity')        // first instance
 * platform.urls('identity')       // every instance
 * await platform.kill('trust', 0, 'SIGKILL'); await platform.restart('trust', 0);
 * await platform.stop();
 * ```
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isChainReady, spawnDevChain } from '@xv/cli';
import { SERVICE_NAMES, SERVICES, type ServiceName } from '@xv/platform';
import { freePort, type ModelServer, startModelServer } from '@xv/platform/testing';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface PlatformOptions {
  /** Services to start (default: all six). */
  services?: ServiceName[];
  /** Instances per service (default 1). */
  instances?: Partial<Record<ServiceName, number>>;
  /** A `postgres://` URL: every service on PostgreSQL, each in a fresh schema. Default: SQLite files. */
  databaseUrl?: string;
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** Whether to start a throw-away anvil (default: when `chain` runs). */
  chain?: boolean;
  /** Run `services/<name>/dist/main.js` (as `npm start` does) where the build is up to date. Default: the sources. */
  compiled?: boolean;
}

export interface ServiceInstance {
  service: ServiceName;
  index: number;
  port: number;
  url: string;
  process: ChildProcess | undefined;
  /** What runs: the compiled `dist/main.js` (as `npm start`) or the sources through tsx. */
  entry: 'dist' | 'source';
  /** Everything the process printed (JSON log lines and errors), for diagnosis. */
  output: string[];
}

export interface Platform {
  /** The base URL of a service's first (or `index`-th) instance. */
  url(service: ServiceName, index?: number): string;
  urls(service: ServiceName): string[];
  instances: ServiceInstance[];
  /** The environment every process shares (addresses, secrets, model settings). */
  env: Record<string, string>;
  dataDir: string;
  model: ModelServer;
  chainRpcUrl: string | undefined;
  kill(service: ServiceName, index?: number, signal?: NodeJS.Signals): Promise<number | null>;
  /** Stops an instance (gracefully) and starts it again, optionally with extra environment from now on. */
  restart(service: ServiceName, index?: number, env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export const MODEL_KEY = 'e2e-model-key';

export async function startPlatform(options: PlatformOptions = {}): Promise<Platform> {
  const names = options.services ?? [...SERVICE_NAMES];
  const dataDir = mkdtempSync(join(tmpdir(), 'xv-e2e-'));
  const model = await startModelServer({ apiKey: MODEL_KEY });
  const schemaSuffix = randomBytes(4).toString('hex');

  let anvil: ChildProcess | undefined;
  let chainRpcUrl: string | undefined;
  if (options.chain ?? names.includes('chain')) {
    const port = await freePort();
    chainRpcUrl = `http://127.0.0.1:${port}`;
    anvil = spawnDevChain({ port });
    await waitFor(() => isChainReady(chainRpcUrl!), 'anvil', 30_000);
  }

  const instances: ServiceInstance[] = [];
  const env: Record<string, string> = {
    XV_DATA_DIR: dataDir,
    XV_LOG_LEVEL: 'warn',
    XV_CHAIN_TOKEN: `e2e-relayer-${randomBytes(16).toString('hex')}`,
    // A batched anchor answers once its batch is sent: batch often, so tests do not wait 2 s per anchor.
    XV_CHAIN_BATCH_INTERVAL_MS: '200',
    // The revocation long-poll answers within a second, so a sweep of its well-formed queries never waits 25 s.
    XV_IDENTITY_REVOCATION_HOLD_SECONDS: '1',
    MODEL_BASE_URL: model.baseUrl,
    MODEL_API_KEY: MODEL_KEY,
    MODEL_NAME: 'scripted',
    ...(chainRpcUrl ? { XV_CHAIN_RPC_URL: chainRpcUrl } : {}),
  };
  // Every port is chosen before any process binds it: the OS may hand the same free port out twice.
  const chosen = new Set<number>();
  const distinctFreePort = async () => {
    for (;;) {
      const port = await freePort();
      if (!chosen.has(port)) {
        chosen.add(port);
        return port;
      }
    }
  };
  for (const service of names) {
    const count = options.instances?.[service] ?? 1;
    for (let index = 0; index < count; index++) {
      const port = await distinctFreePort();
      instances.push({
        service,
        index,
        port,
        url: `http://127.0.0.1:${port}`,
        process: undefined,
        entry: options.compiled && compiledEntry(service) ? 'dist' : 'source',
        output: [],
      });
    }
    const { envKey } = SERVICES[service];
    // The first instance's address is the service's public address (a test may put a proxy in front instead).
    const first = instances.find((i) => i.service === service)!;
    env[`XV_${envKey}_URL`] = first.url;
    env[`XV_${envKey}_PORT`] = String(first.port);
    if (options.databaseUrl) {
      env[`XV_${envKey}_DATABASE_URL`] = options.databaseUrl;
      env[`XV_${envKey}_DATABASE_SCHEMA`] = `e2e_${service}_${schemaSuffix}`;
    }
  }
  Object.assign(env, options.env);

  const extraEnv = new Map<ServiceInstance, Record<string, string>>();
  const spawnInstance = (instance: ServiceInstance) => {
    const { envKey } = SERVICES[instance.service];
    // Instances share the database; on SQLite a second instance would need its own folder.
    const instanceDir = join(dataDir, `${instance.service}-${instance.index}`);
    mkdirSync(instanceDir, { recursive: true });
    const child = spawn(
      process.execPath,
      instance.entry === 'dist'
        ? ['--enable-source-maps', join(root, 'services', instance.service, 'dist', 'main.js')]
        : [
            '--conditions=xv-source',
            '--import',
            'tsx',
            join(root, 'services', instance.service, 'src', 'main.ts'),
          ],
      {
        cwd: root,
        env: {
          ...process.env,
          ...env,
          [`XV_${envKey}_PORT`]: String(instance.port),
          ...(instance.index > 0 && !options.databaseUrl ? { XV_DATA_DIR: instanceDir } : {}),
          ...extraEnv.get(instance),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (chunk: Buffer) => {
      instance.output.push(chunk.toString());
      if (instance.output.length > 500) instance.output.shift();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    instance.process = child;
  };

  const ready = (instance: ServiceInstance) =>
    waitFor(
      async () => {
        if (instance.process?.exitCode !== null && instance.process?.exitCode !== undefined) {
          throw new Error(`${instance.service}#${instance.index} exited:\n${instance.output.join('')}`);
        }
        try {
          const response = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(1000) });
          // Ready means this service answers, not whatever process holds the port.
          const body = (await response.json().catch(() => ({}))) as { service?: string };
          return response.ok && body.service === instance.service;
        } catch {
          return false;
        }
      },
      `${instance.service}#${instance.index}`,
      90_000,
    );

  // Identity first: the others ask it about sessions and organizations as they start.
  const ordered = [...instances].sort(
    (a, b) => Number(b.service === 'identity') - Number(a.service === 'identity'),
  );
  const find = (service: ServiceName, index = 0) => {
    const instance = instances.find((i) => i.service === service && i.index === index);
    if (!instance) throw new Error(`no instance ${service}#${index}`);
    return instance;
  };

  for (const instance of ordered) spawnInstance(instance);
  try {
    await Promise.all(ordered.map(ready));
  } catch (error) {
    // Say why: the last lines each instance printed, before they are stopped.
    for (const instance of instances)
      console.error(`--- ${instance.service}#${instance.index}\n${instance.output.slice(-20).join('')}`);
    await stopAll();
    throw error;
  }

  async function kill(service: ServiceName, index = 0, signal: NodeJS.Signals = 'SIGTERM') {
    const instance = find(service, index);
    const child = instance.process;
    // A process killed by a signal has `signalCode` set and `exitCode` null: it is gone all the same.
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  }

  async function stopAll() {
    await Promise.all(instances.map((i) => kill(i.service, i.index, 'SIGTERM')));
    anvil?.kill('SIGTERM');
    await model.close();
    if (options.databaseUrl) await dropSchemas(options.databaseUrl, names, schemaSuffix);
    rmSync(dataDir, { recursive: true, force: true });
  }

  return {
    url: (service, index = 0) => find(service, index).url,
    urls: (service) => instances.filter((i) => i.service === service).map((i) => i.url),
    instances,
    env,
    dataDir,
    model,
    chainRpcUrl,
    kill,
    async restart(service, index = 0, env) {
      await kill(service, index);
      const instance = find(service, index);
      if (env) extraEnv.set(instance, { ...extraEnv.get(instance), ...env });
      spawnInstance(instance);
      await ready(instance);
    },
    stop: stopAll,
  };
}

/**
 * `services/<name>/dist/main.js` when it exists and the service's build and the
 * platform's are newer than every source file they compile, else undefined.
 */
export function compiledEntry(service: ServiceName): string | undefined {
  const main = join(root, 'services', service, 'dist', 'main.js');
  return existsSync(main) && isBuildFresh('packages/platform') && isBuildFresh(`services/${service}`)
    ? main
    : undefined;
}

/** True when `<project>/tsconfig.build.tsbuildinfo` is newer than every file its build compiles. */
export function isBuildFresh(project: string): boolean {
  const buildInfo = join(root, project, 'tsconfig.build.tsbuildinfo');
  if (!existsSync(buildInfo)) return false;
  const built = statSync(buildInfo).mtimeMs;
  const newer = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const path = join(dir, entry.name);
      // Tests and test helpers are not part of the build (see each tsconfig.build.json).
      if (/\.test\.tsx?$|^testing(\.ts)?$/.test(entry.name)) return false;
      return entry.isDirectory() ? newer(path) : statSync(path).mtimeMs > built;
    });
  return !newer(join(root, project, 'src'));
}

async function dropSchemas(url: string, names: ServiceName[], suffix: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP SCHEMA IF EXISTS e2e_${name}_${suffix} CASCADE`);
  } finally {
    await client.end();
  }
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}
