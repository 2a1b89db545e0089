/**
 * @module http/session-id
 * Which session a request is for: the `session` query parameter or the
 * `x-agent-session` header (the same id when both are given). The id is looked up
 * among the caller's own sessions (`access/principal.ts`). For a caller without cookies
 * the id alone names the session, so it is that caller's secret: such clients
 * should use long random ids, or let the agent make one (`ses_` + 128 random bits).
 */
import { newId } from '@xv/platform';
import type { Context } from 'hono';
import { errors } from '../errors.js';

export const SESSION_HEADER = 'x-agent-session';
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's session id; with `generate`, a new one (`ses_…`) when none is named. */
export function sessionIdOf(c: Context, options: { generate?: boolean } = {}): string {
  const fromQuery = c.req.query('session');
  const fromHeader = c.req.header(SESSION_HEADER);
  if (fromQuery !== undefined && fromHeader !== undefined && fromQuery !== fromHeader)
    throw errors.session_conflict();
  const id = fromQuery ?? fromHeader;
  if (id === undefined || id === '') {
    if (options.generate) return newId('ses');
    throw errors.session_required();
  }
  if (!SESSION_ID.test(id)) throw errors.invalid_session();
  return id;
}
