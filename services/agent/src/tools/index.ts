/**
 * @module tools
 * The business tools the agent may call inside a chat turn. Their arguments are
 * checked against the schemas the model is shown; a tool that throws is reported
 * to the model as that tool's error, and the turn goes on.
 */
import { tool, zodSchema } from '@xv/platform/ai';
import type { TenantAccess } from '../access/tenancy.js';
import { knowledgeSearchInput, searchKnowledgeBase } from './knowledge-search.js';
import { estimateAiRoi, roiInput } from './roi.js';
import { type TicketDesk, ticketInput } from './tickets.js';

export interface ToolContext {
  tenant: string;
  /** The session id the caller chose. */
  session: string;
  /** The session's owner key. */
  owner: string;
  /** What the session's tenant opens for its principal (checked at the start of the turn). */
  access: TenantAccess;
  kbUrl: string;
  tickets: TicketDesk;
  signal: AbortSignal;
}

// Wrapped once: the wrapper converts to JSON Schema on first use and keeps the result (≈0.5 ms a turn otherwise).
const schemas = {
  knowledgeSearch: zodSchema(knowledgeSearchInput),
  roi: zodSchema(roiInput),
  ticket: zodSchema(ticketInput),
};

export function agentTools(context: ToolContext) {
  return {
    knowledgeBaseSearch: tool({
      description:
        "Searches the organization's approved knowledge base documents and returns matching passages.",
      inputSchema: schemas.knowledgeSearch,
      execute: (input) =>
        searchKnowledgeBase({ kbUrl: context.kbUrl, access: context.access, signal: context.signal }, input),
    }),
    estimateAiRoi: tool({
      description:
        'Estimates hours and money (VND) an AI assistant saves a department per month and per year, and the payback time.',
      inputSchema: schemas.roi,
      execute: async (input) => estimateAiRoi(input),
    }),
    createTicket: tool({
      description: 'Opens a ticket so a person follows up on the request.',
      inputSchema: schemas.ticket,
      execute: async (input) => {
        const { tenant, session, owner, access } = context;
        const orgId = access.kind === 'none' ? null : access.orgId;
        const ticket = await context.tickets.open({ tenant, session, owner, orgId }, input);
        return { id: ticket.id, title: ticket.title, priority: ticket.priority };
      },
    }),
  };
}

export const TOOL_NAMES = ['knowledgeBaseSearch', 'estimateAiRoi', 'createTicket'] as const;
