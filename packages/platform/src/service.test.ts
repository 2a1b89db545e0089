import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, tempDir } from './testing/index.js';

const sampleMain = fileURLToPath(new URL('./testing/fixtures/sample-main.ts', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function startSample(env: Record<string, string>, ipc = false) {
  const child = spawn(process.execPath, ['--conditions=xv-source', '--import', 'tsx', sampleMain], {
    env: { ...process.env, XV_LOG_LEVEL: 'warn', XV_DATA_DIR: tempDir(), ...env },
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

async function waitUntilHealthy(url: string) {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became healthy`);
}

describe('a service process', () => {
  it('finishes requests in flight on SIGTERM, then exits 0', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const { child, exited } = startSample({ XV_ORCH_PORT: String(port) });
    await waitUntilHealthy(url);
    const inFlight = fetch(`${url}/slow?ms=800`).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 150));
    child.kill('SIGTERM');
    expect(await inFlight).toEqual({ ok: true, finished: true });
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('stops when the launcher that started it goes away', async () => {
    const port = await freePort();
    const { child, exited } = startSample({ XV_ORCH_PORT: String(port) }, true);
    await waitUntilHealthy(`http://127.0.0.1:${port}`);
    child.disconnect();
    expect(await exited).toBe(0);
  });

  it('refuses to start on a bad setting and names it', async () => {
    const { exited, stderr } = startSample({ XV_ORCH_PORT: 'eighty' });
    expect(await exited).toBe(2);
    expect(stderr()).toContain('XV_ORCH_PORT');
  });
});
