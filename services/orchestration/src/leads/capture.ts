/**
 * @module leads/capture
 * A lead sent by the form or the API: checked, the bot challenge answered (when
 * one is on), then stored or merged into the lead of the same address.
 */
import type { OrchestrationDatabase } from '../db.js';
import type { BotChallenge } from './challenge.js';
import { checkLead, saveLead } from './leads.js';

export async function captureLead(
  database: OrchestrationDatabase,
  challenge: BotChallenge,
  body: Record<string, unknown>,
  clientIp: string,
): Promise<{ leadId: string; created: boolean }> {
  const lead = checkLead(body);
  const answer = challenge.answerField ? body[challenge.answerField] : undefined;
  await challenge.check(typeof answer === 'string' ? answer : undefined, clientIp);
  return saveLead(database, lead);
}
