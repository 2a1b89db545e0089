/**
 * `npm start` as a person runs it: the launcher builds, starts the dev chain and
 * the services it is asked for, prints their addresses, restarts one that
 * crashes, and stops everything on SIGTERM, leaving no process behind.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@xv/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
let launcher: ChildProcess;
let output = '';
let exited: Promise<number | null>;
const dataDir = mkdtempSync(join(tmpdir(), 'xv-launcher-'));
const ports = { identity: 0, chain: 0, anvil: 0 };

function childrenOf(pid: number): { pid: number; args: string }[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [, id, args] = /^\s*(\d+)\s+(.*)$/.exec(line)!;
        return { pid: Number(id), args: args! };
      });
  } catch {
    return []; // ps exits 1 when there are none
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}\n${output}`);
}

const healthy = async (port: number) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  ports.identity = await freePort();
  ports.chain = await freePort();
  ports.anvil = await freePort();
  launcher = spawn(process.execPath, [join(root, 'packages/cli/bin/xv.js'), 'start', 'identity', 'chain'], {
    cwd: root,
    env: {
      ...process.env,
      XV_DATA_DIR: dataDir,
      XV_IDENTITY_PORT: String(ports.identity),
      XV_CHAIN_PORT: String(ports.chain),
      XV_ANVIL_PORT: String(ports.anvil),
      XV_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  launcher.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  launcher.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  exited = new Promise((resolve) => launcher.once('exit', (code) => resolve(code)));
  await until(() => output.includes('XV is running'), 'the address table', 180_000);
}, 200_000);

afterAll(() => {
  if (launcher.exitCode === null) launcher.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the launcher', () => {
  it('prints the address of every service it started and of the dev chain', () => {
    expect(output).toContain(`http://localhost:${ports.identity}`);
    expect(output).toContain(`http://localhost:${ports.chain}`);
    expect(output).toContain(`http://127.0.0.1:${ports.anvil}`);
    expect(output).not.toContain('Knowledge base');
  });

  it('brings up the services and the dev chain', async () => {
    expect(await healthy(ports.identity)).toBe(true);
    expect(await healthy(ports.chain)).toBe(true);
    const rpc = await fetch(`http://127.0.0.1:${ports.anvil}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect((await rpc.json()).result).toBe('0x7a69');
  });

  it('runs the EAS contracts on the dev chain, deployed by the relayer', async () => {
    const eas = await (await fetch(`http://127.0.0.1:${ports.chain}/api/eas`)).json();
    expect(eas).toMatchObject({ chainId: 31337, version: '1.4.0' });
    for (const address of [eas.eas, eas.schemaRegistry]) {
      const rpc = await fetch(`http://127.0.0.1:${ports.anvil}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [address, 'latest'] }),
      });
      expect((await rpc.json()).result.length).toBeGreaterThan(100);
    }
  });

  it('reports a crashed service and restarts it', async () => {
    const identity = childrenOf(launcher.pid!).find((c) => c.args.includes('services/identity/dist/main.js'));
    expect(identity).toBeDefined();
    process.kill(identity!.pid, 'SIGKILL');
    await until(() => output.includes('identity was killed by SIGKILL; restarting'), 'the crash report');
    await until(() => healthy(ports.identity), 'identity to come back');
    const again = childrenOf(launcher.pid!).find((c) => c.args.includes('services/identity/dist/main.js'));
    expect(again!.pid).not.toBe(identity!.pid);
  });

  it('stops everything on SIGTERM and leaves no process behind', async () => {
    const started = childrenOf(launcher.pid!).map((c) => c.pid);
    expect(started.length).toBe(3); // anvil, identity, chain
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    await until(() => started.every((pid) => !isAlive(pid)), 'the children to exit', 20_000);
    expect(await healthy(ports.identity)).toBe(false);
  });
});
