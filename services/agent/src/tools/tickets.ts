/**
 * @module tools/tickets
 * Tickets the agent opens for a person to follow up: stored with their creator
 * (the session's owner) and, when the tenant is an organization, that
 * organization; announced to an optional webhook (`XV_AGENT_TICKET_WEBHOOK`)
 * after they are stored. A webhook that fails is logged; the ticket stands.
 *
 * Who sees a ticket: its creator (the same owner; a caller without cookies only
 * in the session id it was opened in), and the members of its organization who
 * hold `tickets:read` there (admins and support). Nobody else.
 */
import { type Database, type Logger, newId, z } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { Tables } from '../db.js';

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

export const ticketInput = z.object({
  title: z.string().trim().min(1).max(200).describe('A one-line summary'),
  priority: z.enum(TICKET_PRIORITIES).default('normal').describe('low, normal, high or urgent'),
  details: z.string().trim().max(4000).default('').describe('What the person following up needs to know'),
});
export type TicketInput = z.input<typeof ticketInput>;

/** Where a ticket comes from. */
export interface TicketOrigin {
  tenant: string;
  /** The session id its creator chose. */
  session: string;
  owner: string;
  /** The organization it is opened for, when the tenant is one the creator may reach. */
  orgId: string | null;
}

/** Whose tickets a listing shows. */
export interface TicketReader {
  owner: string;
  /** The session id the caller named (what finds a cookie-less caller's tickets). */
  session: string;
  /** Organizations whose tickets the caller may read (`tickets:read`). */
  orgIds: string[];
}

export interface Ticket {
  id: string;
  tenant: string;
  /** The creator's session id: shown to the creator only, '' to the organization's staff. */
  session: string;
  title: string;
  priority: (typeof TICKET_PRIORITIES)[number];
  details: string;
  createdAt: number;
}

const WEBHOOK_TIMEOUT_MS = 5_000;

export class TicketDesk {
  private readonly db: Kysely<Tables>;

  constructor(
    database: Database<Tables>,
    private readonly options: { webhook?: string | undefined; logger: Logger },
  ) {
    this.db = database.kysely;
  }

  async open(origin: TicketOrigin, input: TicketInput): Promise<Ticket> {
    const { title, priority, details } = ticketInput.parse(input);
    const { tenant, session } = origin;
    const ticket: Ticket = {
      id: newId('tkt'),
      tenant,
      session,
      title,
      priority,
      details,
      createdAt: Date.now(),
    };
    await this.db
      .insertInto('agent_tickets')
      .values({
        id: ticket.id,
        tenant,
        session_id: session,
        owner: origin.owner,
        org_id: origin.orgId,
        title,
        priority,
        details,
        created_at: ticket.createdAt,
      })
      .execute();
    void this.announce(ticket);
    return ticket;
  }

  /** The tickets `reader` may see, newest first. */
  async list(reader: TicketReader, limit = 100): Promise<Ticket[]> {
    const own = (row: { owner: string; session_id: string }) =>
      row.owner === reader.owner && (reader.owner !== '' || row.session_id === reader.session);
    const rows = await this.db
      .selectFrom('agent_tickets')
      .selectAll()
      .where((eb) => {
        const mine = eb('owner', '=', reader.owner);
        const created = reader.owner ? mine : eb.and([mine, eb('session_id', '=', reader.session)]);
        return reader.orgIds.length ? eb.or([created, eb('org_id', 'in', reader.orgIds)]) : created;
      })
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      tenant: row.tenant,
      // A cookie-less creator's session id is its secret: the organization's staff do not get it.
      session: own(row) ? row.session_id : '',
      title: row.title,
      priority: row.priority as Ticket['priority'],
      details: row.details,
      createdAt: Number(row.created_at),
    }));
  }

  private async announce(ticket: Ticket): Promise<void> {
    if (!this.options.webhook) return;
    try {
      const response = await fetch(this.options.webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'ticket.created', ticket }),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      if (!response.ok)
        this.options.logger.warn({ status: response.status, ticket: ticket.id }, 'ticket webhook refused');
    } catch (error) {
      // The reason only: the webhook's URL may carry a token.
      const reason = error instanceof Error ? error.message : 'unknown';
      this.options.logger.warn({ reason, ticket: ticket.id }, 'ticket webhook failed');
    }
  }
}
