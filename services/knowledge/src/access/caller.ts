/**
 * @module access/caller
 * Who is asking, whatever the credential: a personal access token (acting as its
 * owner in the organization it was created for) or an SSO session (acting in its
 * active organization); and the access rules that depend on it alone.
 */
import { errors } from '../errors.js';

export type Scope = 'sync' | 'ai:read';
export const SCOPES = ['sync', 'ai:read'] as const satisfies readonly Scope[];
export const REVIEW_PERMISSION = 'review:decide';

export interface Caller {
  userId: string;
  email: string;
  orgId: string;
  via: 'token' | 'session';
  /** Scopes of the token; empty for a session. */
  scopes: readonly string[];
  /** Permissions of the session's membership; empty for a token. */
  permissions: readonly string[];
}

/** Whether the caller may decide on reviews (and mark documents public). */
export function isReviewer(caller: Caller): boolean {
  return caller.permissions.includes(REVIEW_PERMISSION);
}

/** Refuses (403 `review_forbidden`) a caller who is not a reviewer in the organization. */
export function requireReviewer(caller: Caller): void {
  if (!isReviewer(caller)) throw errors.review_forbidden();
}

/** Whether a token's scopes cover what an endpoint needs. */
export function hasScope(caller: Caller, scope: Scope): boolean {
  return caller.scopes.includes(scope);
}
