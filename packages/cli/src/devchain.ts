/**
 * @module devchain
 * The local EVM dev chain: anvil, from the binary shipped in the npm package.
 * Its state is saved to a file every second (`--state-interval 1`), so a killed
 * launcher loses at most the last second, and a clean exit saves everything.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

export function anvilBinary(): string {
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!pkg) throw new Error(`No anvil binary is published for ${process.platform}-${process.arch}.`);
  const dir = dirname(require.resolve(`${pkg}/package.json`));
  return join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export interface DevChainOptions {
  port: number;
  /** Folder for the chain state; omit for a throw-away chain. */
  stateDir?: string;
  chainId?: number;
}

export function spawnDevChain(options: DevChainOptions): ChildProcess {
  const args = [
    '--quiet',
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--chain-id',
    String(options.chainId ?? 31337),
  ];
  if (options.stateDir) {
    const dir = resolve(options.stateDir);
    mkdirSync(dir, { recursive: true });
    args.push('--state', join(dir, 'state.json'), '--state-interval', '1');
  }
  return spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** True once the node answers `eth_chainId`. */
export async function isChainReady(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    return response.ok;
  } catch {
    return false;
  }
}
