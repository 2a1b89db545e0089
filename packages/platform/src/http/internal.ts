/**
 * @module http/internal
 * Recognises a call made with the platform's internal credential (auth/internal.ts).
 */
import type { Context } from 'hono';
import { constantTimeEqual } from '../crypto.js';
import { bearerToken } from './guard.js';

/** Whether the request carries `Authorization: Bearer <internal credential>` (compared in constant time). */
export function isInternalCaller(c: Context, internalToken: string): boolean {
  const token = bearerToken(c);
  return typeof token === 'string' && constantTimeEqual(token, internalToken);
}
