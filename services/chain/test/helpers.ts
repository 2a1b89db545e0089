/**
 * Small helpers shared by the relayer's tests.
 */
import { randomBytes } from 'node:crypto';
import type { Hex } from 'viem';

export const randomHash = (): Hex => `0x${randomBytes(32).toString('hex')}`;

/** Polls `probe` until it returns a value other than undefined (or gives up after `timeoutMs`). */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const bearer = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
});
