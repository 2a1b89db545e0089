/**
 * @module launcher/start
 * `xv start [service…]`: the whole platform (or a subset) on this machine. It
 * starts the local EVM dev chain unless `XV_CHAIN_RPC_URL` points elsewhere, then
 * each service as its own process, waits until every `/readyz` answers, prints
 * the addresses (banner.ts), restarts a service that crashes, and on Ctrl-C or SIGTERM stops
 * everything gracefully.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  httpUrl,
  isServiceName,
  loadPlatformSettings,
  loadSettings,
  port,
  SERVICE_NAMES,
  SERVICES,
  type ServiceName,
  setting,
  z,
} from '@xv/platform';
import { isChainReady, spawnDevChain } from '../devchain.js';
import { repoRoot } from '../paths.js';
import { startBanner } from './banner.js';
import { formatLogLine } from './log-format.js';
import { type ProcessSpec, Supervisor } from './supervisor.js';

const launcherSettings = {
  services: setting('XV_SERVICES', z.string().optional()),
  anvilPort: setting('XV_ANVIL_PORT', port(8545)),
  chainRpcUrl: setting('XV_CHAIN_RPC_URL', httpUrl().optional()),
  readyTimeoutSeconds: setting('XV_READY_TIMEOUT', z.coerce.number().int().positive().default(90)),
  logFormat: setting('XV_LOG_FORMAT', z.enum(['pretty', 'json']).default('pretty')),
};

export async function start(args: string[]): Promise<number> {
  const env = process.env;
  const launcher = loadSettings(launcherSettings, env);
  const names = chooseServices(args, launcher.services);
  const settings = loadPlatformSettings('identity', env);
  const dataDir = resolve(settings.dataDir);
  const chainRpcUrl = launcher.chainRpcUrl ?? `http://127.0.0.1:${launcher.anvilPort}`;
  const withDevChain = !launcher.chainRpcUrl && names.includes('chain');

  const ports = names.map((name) => ({
    name: name as string,
    port: settings.services[name].port,
    env: `XV_${SERVICES[name].envKey}_PORT`,
  }));
  if (withDevChain) ports.unshift({ name: 'anvil', port: launcher.anvilPort, env: 'XV_ANVIL_PORT' });
  const busy = await portsInUse(
    ports.map((p) => p.port),
    settings.host,
  );
  if (busy.length > 0) {
    for (const p of ports.filter((p) => busy.includes(p.port))) {
      console.error(`xv: port ${p.port} (${p.name}) is already in use; stop what holds it or set ${p.env}.`);
    }
    return 1;
  }

  const childEnv = { ...env, XV_DATA_DIR: dataDir, XV_CHAIN_RPC_URL: chainRpcUrl };
  const specs: ProcessSpec[] = [];
  if (withDevChain) {
    specs.push({
      name: 'anvil',
      spawn: () => spawnDevChain({ port: launcher.anvilPort, stateDir: resolve(dataDir, 'anvil') }),
      isReady: () => isChainReady(chainRpcUrl),
    });
  }
  for (const name of names) {
    const base = `http://127.0.0.1:${settings.services[name].port}`;
    specs.push({
      name,
      spawn: () =>
        spawn(
          process.execPath,
          ['--enable-source-maps', resolve(repoRoot, 'services', name, 'dist', 'main.js')],
          {
            cwd: repoRoot,
            env: childEnv,
            stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
          },
        ),
      isReady: () => answers(`${base}/readyz`),
    });
  }

  const width = Math.max(...specs.map((s) => s.name.length));
  const supervisor = new Supervisor(specs, {
    output: (name, line, stream) => {
      const text = launcher.logFormat === 'json' ? line : formatLogLine(name, line, width);
      (stream === 'stderr' ? process.stderr : process.stdout).write(`${text}\n`);
    },
    notice: (message) => console.error(`xv: ${message}`),
  });

  let exitCode = 0;
  const stopped = new Promise<void>((done) => {
    const stop = async (signal: string) => {
      console.error(`\nxv: ${signal}: stopping…`);
      await supervisor.stop();
      done();
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });

  // The chain comes first: the relayer checks it when it starts.
  const order = [specs.filter((s) => s.name === 'anvil'), specs.filter((s) => s.name !== 'anvil')];
  try {
    for (const group of order) {
      if (group.length === 0) continue;
      supervisor.start(group.map((s) => s.name));
      await supervisor.waitUntilReady(
        group.map((s) => s.name),
        launcher.readyTimeoutSeconds * 1000,
      );
    }
    process.stdout.write(
      startBanner({
        names,
        addresses: settings.services,
        env,
        ...(withDevChain ? { chainRpcUrl } : {}),
      }),
    );
  } catch (error) {
    console.error(`xv: ${(error as Error).message}`);
    exitCode = 1;
    await supervisor.stop();
    return exitCode;
  }
  await stopped;
  return exitCode;
}

function chooseServices(args: string[], fromEnv: string | undefined): ServiceName[] {
  const requested =
    args.length > 0
      ? args
      : (fromEnv
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean) ?? []);
  if (requested.length === 0) return [...SERVICE_NAMES];
  const unknown = requested.filter((name) => !isServiceName(name));
  if (unknown.length > 0) {
    throw new UsageError(`unknown service ${unknown.join(', ')}; choose from ${SERVICE_NAMES.join(', ')}`);
  }
  return SERVICE_NAMES.filter((name) => requested.includes(name));
}

export class UsageError extends Error {}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

async function portsInUse(ports: number[], host: string): Promise<number[]> {
  const busy = await Promise.all(
    ports.map(
      (p) =>
        new Promise<boolean>((done) => {
          const server = createServer();
          server.once('error', () => done(true));
          server.listen(p, host, () => server.close(() => done(false)));
        }),
    ),
  );
  return ports.filter((_, i) => busy[i]);
}
