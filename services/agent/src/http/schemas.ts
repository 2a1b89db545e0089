/**
 * @module http/schemas
 * Request and response shapes of the agent API, as the spec names them.
 */

import { MODEL_PROVIDERS } from '@xv/platform/ai';
import { z } from '@xv/platform/http';
import { SESSION_HEADER } from './session-id.js';

const MAX_ROUTE_JSON = 2_000;

export const routeSchema = z
  .looseObject({
    provider: z.enum(MODEL_PROVIDERS),
    model: z.string().trim().max(200).optional(),
    useGateway: z.boolean().optional(),
  })
  .refine((route) => JSON.stringify(route).length <= MAX_ROUTE_JSON, {
    message: `The route is larger than ${MAX_ROUTE_JSON} characters.`,
  })
  .openapi('Route');

export const sessionQuery = z.object({
  session: z.string().optional().openapi({ description: 'The session id (or send `x-agent-session`)' }),
});

export const sessionHeaders = z.object({ [SESSION_HEADER]: z.string().optional() });

export const chatBody = z
  .object({
    message: z.string().openapi({ description: 'The message; not empty' }),
    route: routeSchema.optional(),
  })
  .openapi('ChatRequest');

export const configBody = z
  .object({
    route: routeSchema.optional(),
    systemPrompt: z.string().trim().min(1).max(8_000).optional(),
    tenant: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'A tenant is 1 to 64 letters, digits, `.`, `_` or `-`.')
      .optional(),
  })
  .openapi('AgentConfig');

export const messageSchema = z
  .object({
    id: z.string(),
    role: z.string(),
    content: z.string(),
    ts: z.number().int(),
    tools: z.array(z.string()).optional(),
  })
  .openapi('AgentMessage');

export const stateSchema = z
  .object({
    session: z.string(),
    tenant: z.string(),
    route: routeSchema,
    systemPrompt: z.string(),
    messageCount: z.number().int(),
    messages: z.array(messageSchema),
  })
  .openapi('AgentSessionState');

export const ticketSchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    session: z.string(),
    title: z.string(),
    priority: z.string(),
    details: z.string(),
    createdAt: z.number().int(),
  })
  .openapi('Ticket');
