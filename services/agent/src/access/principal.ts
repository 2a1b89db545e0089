/**
 * @module access/principal
 * Who is asking, and so whose sessions a request reaches. A session is found by
 * its owner and the id the caller chose:
 *
 * - a signed-in person (a valid shared `xv_session`, checked with identity):
 *   owner `user:<usr_id>`;
 * - a browser that opened the chat page without signing in carries an anonymous
 *   owner secret (256 random bits, in an HttpOnly cookie): owner
 *   `anon:<sha256 of the secret>`, so the database never holds the secret itself;
 * - a caller with neither (a script): no owner; the id alone names the session,
 *   and is then the caller's secret.
 *
 * The same id under two owners is two unrelated sessions. Reading the cookies is
 * the HTTP side's work (`http/principal.ts`); the rules are here.
 */
import { randomBytes } from 'node:crypto';
import { type IdentitySession, type SessionMembership, sha256Hex } from '@xv/platform';

/** 32 bytes in base64url. */
const OWNER_SECRET = /^[A-Za-z0-9_-]{43}$/;

export type Principal =
  | {
      kind: 'person';
      owner: string;
      person: IdentitySession;
      /** The person's `xv_session`, forwarded to the knowledge base to search with their rights. */
      sessionToken: string;
      /** The organization they act for (`xv_org`, else their first membership). */
      active: SessionMembership | undefined;
    }
  | { kind: 'visitor'; owner: string }
  | { kind: 'bare'; owner: '' };

/** What a request proved about its caller. */
export interface Credentials {
  /** The signed-in person and their session token, when identity confirmed the token. */
  person?: { session: IdentitySession; token: string; active: SessionMembership | undefined } | undefined;
  /** The anonymous owner secret the browser carries, if any. */
  ownerSecret?: string | undefined;
}

export function principalFrom({ person, ownerSecret }: Credentials): Principal {
  if (person)
    return {
      kind: 'person',
      owner: `user:${person.session.user.id}`,
      person: person.session,
      sessionToken: person.token,
      active: person.active,
    };
  if (ownerSecret && OWNER_SECRET.test(ownerSecret))
    return { kind: 'visitor', owner: `anon:${sha256Hex(ownerSecret)}` };
  return { kind: 'bare', owner: '' };
}

/** A new anonymous owner secret. */
export const newOwnerSecret = () => randomBytes(32).toString('base64url');

/**
 * The row key of a session: `<owner>/<id>`, or the bare id without an owner. An id
 * never contains `/`, so a bare id can never reach an owned session.
 */
export function sessionKey(principal: Principal, id: string): string {
  return principal.owner ? `${principal.owner}/${id}` : id;
}
