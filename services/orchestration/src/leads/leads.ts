/**
 * @module leads/leads
 * Leads captured from the form: validated, refused for personal addresses, and
 * kept once per e-mail address (sending the form again updates the lead).
 */
import { newId, z } from '@xv/platform';
import { sql } from 'kysely';
import type { OrchestrationDatabase } from '../db.js';
import { errors } from '../errors.js';
import { isPersonalEmail } from './email-policy.js';

export const LEAD_FIELDS = {
  name: z.string().trim().min(1).max(200),
  email: z.string().trim().max(254).pipe(z.email()),
  company: z.string().trim().max(200).optional(),
  tool: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/i)
    .optional(),
};

const leadSchema = z.object(LEAD_FIELDS);

export interface Lead {
  name: string;
  email: string;
  company: string | null;
  tool: string;
}

/** Checks a submitted lead: 400 `invalid` for a missing or malformed field, `personal_email` for a personal address. */
export function checkLead(input: unknown): Lead {
  const parsed = leadSchema.safeParse(input);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'body';
    throw errors.invalid(`The field "${field}" is missing or invalid.`, { field });
  }
  const { name, email, company, tool } = parsed.data;
  if (isPersonalEmail(email)) throw errors.personal_email();
  return { name, email: email.toLowerCase(), company: company || null, tool: tool || 'orchestration' };
}

/** Stores the lead, or merges it into the lead of the same address. */
export async function saveLead(
  database: OrchestrationDatabase,
  lead: Lead,
): Promise<{ leadId: string; created: boolean }> {
  const now = Date.now();
  const row = await database.kysely
    .insertInto('leads')
    .values({
      lead_id: newId('lead'),
      email: lead.email,
      name: lead.name,
      company: lead.company,
      tool: lead.tool,
      submissions: 1,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        name: (eb) => eb.ref('excluded.name'),
        // A later form without a company keeps the one given before.
        company: sql<string | null>`coalesce(excluded.company, leads.company)`,
        tool: (eb) => eb.ref('excluded.tool'),
        submissions: sql<number>`leads.submissions + 1`,
        updated_at: now,
      }),
    )
    .returning(['lead_id', 'submissions'])
    .executeTakeFirstOrThrow();
  return { leadId: row.lead_id, created: Number(row.submissions) === 1 };
}

export interface LeadRecord {
  lead_id: string;
  name: string;
  email: string;
  company: string | null;
  tool: string;
  submissions: number;
  created_at: string;
  updated_at: string;
}

const cursorOf = (createdAt: number, leadId: string) =>
  Buffer.from(`${createdAt}:${leadId}`).toString('base64url');

function parseCursor(cursor: string): { createdAt: number; leadId: string } {
  const [createdAt, leadId] = Buffer.from(cursor, 'base64url').toString().split(':');
  if (!createdAt || !leadId || !/^\d{1,15}$/.test(createdAt))
    throw errors.invalid('The cursor is not valid.');
  return { createdAt: Number(createdAt), leadId };
}

/** Newest first, `limit` at a time; `cursor` continues after the last page. */
export async function listLeads(
  database: OrchestrationDatabase,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
): Promise<{ leads: LeadRecord[]; nextCursor: string | null }> {
  let query = database.kysely
    .selectFrom('leads')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('lead_id', 'desc')
    .limit(limit + 1);
  if (cursor) {
    const after = parseCursor(cursor);
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('lead_id', '<', after.leadId)]),
      ]),
    );
  }
  const rows = await query.execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    leads: page.map((r) => ({
      lead_id: r.lead_id,
      name: r.name,
      email: r.email,
      company: r.company,
      tool: r.tool,
      submissions: Number(r.submissions),
      created_at: new Date(Number(r.created_at)).toISOString(),
      updated_at: new Date(Number(r.updated_at)).toISOString(),
    })),
    nextCursor: rows.length > limit && last ? cursorOf(Number(last.created_at), last.lead_id) : null,
  };
}
