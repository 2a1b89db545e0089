/**
 * @module workflows/connectors/lead-create
 * `lead.create`: stores a lead exactly as `POST /api/lead` does (same checks,
 * same merge by e-mail address), without a bot challenge. Output: `{leadId, created}`.
 */
import { AppError, z } from '@xv/platform';
import type { OrchestrationDatabase } from '../../db.js';
import { checkLead, saveLead } from '../../leads/leads.js';
import { defineConnector, StepError } from './connector.js';

export function leadCreateConnector(database: OrchestrationDatabase) {
  return defineConnector({
    name: 'lead.create',
    description: 'Stores (or updates) a lead; output {leadId, created}.',
    params: z.object({ name: z.unknown(), email: z.unknown(), company: z.unknown(), tool: z.unknown() }),
    async run(params) {
      let lead: ReturnType<typeof checkLead>;
      try {
        const present = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== null && v !== ''));
        lead = checkLead(present);
      } catch (error) {
        if (error instanceof AppError) throw new StepError(`${error.code}: ${error.message}`, false);
        throw error;
      }
      return saveLead(database, lead);
    },
  });
}
