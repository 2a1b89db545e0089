/**
 * Small helpers shared by the relayer's tests.
 */
import { randomBytes } from 'node:crypto';
import type { Hex } from 'viem';

export const randomHash = (): Hex => `0x${randomBytes(32).toString('hex')}`;

export { eventually } from '@xv/platform/testing';

export const bearer = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
});
