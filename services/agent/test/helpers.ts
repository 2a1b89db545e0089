/**
 * Test helpers: an agent service wired to a scripted model server, and a small
 * client for its API.
 */
import type { Database } from '@xv/platform';
import { type ModelServer, type RunningService, startService } from '@xv/platform/testing';
import type { Tables } from '../src/db.js';
import { agentService } from '../src/service.js';

export const MODEL_KEY = 'agent-test-model-key';

export function modelEnv(model: ModelServer, extra: Record<string, string> = {}) {
  return {
    MODEL_BASE_URL: model.baseUrl,
    MODEL_API_KEY: MODEL_KEY,
    MODEL_NAME: 'scripted',
    XV_AGENT_CHAT_PER_MINUTE: '10000',
    ...extra,
  };
}

/** A running agent service, typed by its tables. */
export type Agent = RunningService<unknown, Tables>;

export function startAgent(database: Database, env: Record<string, string>): Promise<Agent> {
  return startService(agentService, { database, env });
}

export function chatRequest(
  agent: Agent,
  session: string | undefined,
  message: unknown,
  options: { route?: unknown; via?: 'query' | 'header'; marks?: boolean; signal?: AbortSignal } = {},
) {
  const query = new URLSearchParams();
  if (session !== undefined && options.via !== 'header') query.set('session', session);
  if (options.marks) query.set('marks', '1');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session !== undefined && options.via === 'header') headers['x-agent-session'] = session;
  const body = JSON.stringify(options.route ? { message, route: options.route } : { message });
  return agent.fetch(`/api/chat?${query}`, {
    method: 'POST',
    headers,
    body,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** Sends a message and returns the whole streamed answer. */
export async function chat(agent: Agent, session: string, message: string, options = {}) {
  const response = await chatRequest(agent, session, message, options);
  if (response.status !== 200) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
  return response.text();
}

export async function state(agent: Agent, session: string) {
  const response = await agent.fetch(`/api/state?session=${encodeURIComponent(session)}`);
  if (response.status !== 200) throw new Error(`state answered ${response.status}`);
  return response.json();
}

export const postJson = (agent: Agent, path: string, body: unknown) =>
  agent.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

let counter = 0;
export const newSession = (name = 's') =>
  `${name}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2)}`;

/** The model's view of a request, reduced to role and text. */
// biome-ignore lint/suspicious/noExplicitAny: wire messages.
export const seen = (messages: any[]) =>
  messages.map((m) => `${m.role}:${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`);

export async function until(condition: () => boolean | Promise<boolean>, what = 'condition') {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}
