/**
 * The trust service's test stack: a throw-away anvil chain, the chain relayer on it,
 * optionally the real identity service, and the trust service pointed at them.
 */
import { type DevChain, startDevChain, startRelayer, TEST_RELAYER_TOKEN } from '@xv/chain/testing';
import { startIdentity } from '@xv/identity/testing';
import type { Database } from '@xv/platform';
import { type DatabaseTarget, type RunningService, startService } from '@xv/platform/testing';
import { trustService } from '@xv/trust';

export interface TrustStack {
  chain: DevChain;
  relayer: RunningService;
  identity: RunningService | undefined;
  trust: RunningService;
  trustDatabase: Database;
  /** Starts another trust service (other settings) on the same chain, relayer and identity. */
  startTrust(env?: Record<string, string>): Promise<RunningService>;
}

export async function startTrustStack(
  target: DatabaseTarget,
  options: { demo?: boolean; identity?: boolean } = {},
): Promise<TrustStack> {
  const chain = await startDevChain();
  const relayer = await startRelayer(await target.open('chain'), { rpcUrl: chain.rpcUrl });
  const identity = options.identity ? await startIdentity(await target.open('identity')) : undefined;
  const startTrust = async (env: Record<string, string> = {}, database?: Database) =>
    startService(trustService, {
      database: database ?? (await target.open('trust')),
      env: {
        XV_TRUST_DEMO: options.demo ? '1' : '0',
        XV_CHAIN_URL: relayer.url,
        XV_CHAIN_TOKEN: TEST_RELAYER_TOKEN,
        XV_CHAIN_RPC_URL: chain.rpcUrl,
        XV_IDENTITY_URL: identity?.url ?? 'http://127.0.0.1:9',
        ...env,
      },
    }) as Promise<RunningService>;
  const trustDatabase = await target.open('trust');
  const trust = await startTrust({}, trustDatabase);
  return { chain, relayer, identity, trust, trustDatabase, startTrust: (env) => startTrust(env) };
}

export const postJson = (
  service: RunningService,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  service.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** Polls `probe` until it returns a value other than undefined. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
