/**
 * @module workflows/connectors/lead-create
 * `lead.create`: stores a lead exactly as `POST /api/lead` does (same checks,
 * same merge by e-mail address). Output: `{leadId, created}`. A workflow with this
 * step needs the lead form's bot challenge when one is on: the route checks it, and
 * the lead's fields, before the run is made (`needsBotChallenge`, `check`).
 */
import { AppError, z } from '@xv/platform';
import type { OrchestrationDatabase } from '../../db.js';
import { checkLead, saveLead } from '../../leads/leads.js';
import { defineConnector, StepError } from './connector.js';

const params = z.object({ name: z.unknown(), email: z.unknown(), company: z.unknown(), tool: z.unknown() });

/** The lead as a form would send it: empty fields left out. */
const checkedLead = (values: z.infer<typeof params>) =>
  checkLead(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== '')));

export function leadCreateConnector(database: OrchestrationDatabase) {
  return defineConnector({
    name: 'lead.create',
    description: 'Stores (or updates) a lead; output {leadId, created}.',
    params,
    needsBotChallenge: true,
    check: (values) => void checkedLead(values),
    async run(values) {
      let lead: ReturnType<typeof checkLead>;
      try {
        lead = checkedLead(values);
      } catch (error) {
        if (error instanceof AppError) throw new StepError(`${error.code}: ${error.message}`, false);
        throw error;
      }
      return saveLead(database, lead);
    },
  });
}
