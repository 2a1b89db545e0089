/**
 * @module caller
 * Who is asking, whatever the credential: a personal access token (acting as its
 * owner in the organization it was created for) or an SSO session (acting in its
 * active organization).
 */

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
