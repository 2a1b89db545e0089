/**
 * @module db
 * The agent's tables, as Kysely sees them. Times are Unix milliseconds; JSON
 * values are text.
 */
import type { Generated } from 'kysely';

export type Tables = {
  agent_sessions: {
    /** The session's key: `<owner>/<id>` for an owned session, the bare id otherwise. */
    id: string;
    /** `user:<id>`, `anon:<hash>`, or '' (a caller without cookies). */
    owner: Generated<string>;
    tenant: string;
    route: string | null;
    system_prompt: string | null;
    rev: Generated<number>;
    lease_owner: string | null;
    lease_fence: Generated<number>;
    lease_expires_at: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  agent_messages: {
    id: string;
    session_id: string;
    seq: number;
    role: string;
    content: string;
    tools: string | null;
    ts: number;
  };
  agent_tickets: {
    id: string;
    tenant: string;
    /** The session id its creator chose (not the key). */
    session_id: string;
    /** The creator's owner key ('' for a caller without cookies). */
    owner: Generated<string>;
    /** The organization it was opened for; null when the tenant named none. */
    org_id: string | null;
    title: string;
    priority: string;
    details: string;
    created_at: number;
  };
};
