/**
 * @module settings
 * The agent's own settings (the model settings come from the shared model layer).
 */

import { seconds, setting, z } from '@xv/platform';
import { modelSettingsSpec } from '@xv/platform/ai';

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const DEFAULT_SYSTEM_PROMPT =
  'You are the XV business assistant. Answer briefly and accurately. Use knowledgeBaseSearch for ' +
  "questions about the company's documents, estimateAiRoi to estimate the value of AI for a team, and " +
  'createTicket when the user asks for follow-up by a person.';

export const agentSettingsSpec = {
  ...modelSettingsSpec,
  /**
   * No longer used: the knowledge tool searches as the session's principal. Read only to warn an
   * operator who still sets it that it grants nothing any more.
   */
  retiredKbToken: setting('XV_AGENT_KB_TOKEN', z.string().optional(), { secret: true }),
  ticketWebhook: setting('XV_AGENT_TICKET_WEBHOOK', z.url({ protocol: /^https?$/ }).optional(), {
    secret: true,
  }),
  systemPrompt: setting('XV_AGENT_SYSTEM_PROMPT', z.string().trim().min(1).default(DEFAULT_SYSTEM_PROMPT)),
  maxMessageChars: setting('XV_AGENT_MAX_MESSAGE_CHARS', positive(8000)),
  /** What the model sees of the history: at most this many of the latest messages … */
  historyMessages: setting('XV_AGENT_HISTORY_MESSAGES', positive(20)),
  /** … and at most this many characters of them; older ones stay in storage. */
  historyChars: setting('XV_AGENT_HISTORY_CHARS', positive(24_000)),
  /** Session objects kept in memory; the least recently used idle ones leave first. */
  maxActors: setting('XV_AGENT_MAX_ACTORS', positive(10_000)),
  /** A session object idle this long leaves memory (its state is in the database). */
  idleSeconds: setting('XV_AGENT_IDLE_SECONDS', seconds(300)),
  /** How long a message may wait for its session's turn before 503 `session_busy`. */
  turnWaitSeconds: setting('XV_AGENT_TURN_WAIT_SECONDS', seconds(120)),
  /** Lifetime of a session lease; the holder renews it while its turn runs. */
  leaseSeconds: setting('XV_AGENT_LEASE_SECONDS', seconds(30)),
  /** Chat messages per minute from one IP address. */
  chatPerMinute: setting('XV_AGENT_CHAT_PER_MINUTE', positive(60)),
};
