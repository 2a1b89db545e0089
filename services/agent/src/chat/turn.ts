/**
 * @module chat/turn
 * One chat turn of a session: the model sees the system prompt, the latest
 * history (trimmed to the configured window; storage keeps everything) and the
 * new message; it may call tools in at most 5 steps. A turn is all or nothing:
 * only a turn that finished is written (the user's message and the answer,
 * together); a model failure, a timeout or a client that went away leaves the
 * history as it was.
 *
 * This module is the one place that changes a session held by a turn: a finished
 * answer (`startChatTurn`), new settings (`configureSession`) and a cleared
 * history (`clearSession`), each written under the turn's lease and then applied
 * to the turn's copy.
 */

import { newId } from '@xv/platform';
import {
  type ChatEvent,
  type LanguageModel,
  type ModelCatalog,
  type ModelMessage,
  streamChat,
} from '@xv/platform/ai';
import { type Locale, translator } from '@xv/platform/i18n';
import { messages } from '../messages/index.js';
import type { SessionSnapshot, SessionTurn } from '../sessions/actor.js';
import { LeaseLostError, type Route, type SessionStore, type StoredMessage } from '../sessions/store.js';
import { agentTools, type ToolContext } from '../tools/index.js';
import { type KnowledgeSource, sourcesOf } from './sources.js';

export const MAX_TOOL_STEPS = 5;
/** The note that ends an answer cut off by the step limit, in `locale`. */
export const stepLimitNote = (locale: Locale = 'en') =>
  translator(messages, locale)('answer.stepLimit', { steps: MAX_TOOL_STEPS });
export const STEP_LIMIT_NOTE = stepLimitNote();

export interface ChatSettings {
  systemPrompt: string;
  historyMessages: number;
  historyChars: number;
  timeoutMs: number;
}

export interface ChatDependencies {
  catalog: ModelCatalog;
  store: SessionStore;
  settings: ChatSettings;
  tools: Omit<ToolContext, 'tenant' | 'session' | 'owner' | 'access' | 'signal'>;
}

/** Who the turn acts for: the session id they chose, its owner, and what its tenant opens to them. */
export type TurnCaller = Pick<ToolContext, 'session' | 'owner' | 'access'>;

export interface ChatRequest {
  message: string;
  /** Answers this and later messages of the session with this route. */
  route?: Route | undefined;
  /** The language the message was sent in: the agent's own words in the answer use it. */
  locale?: Locale | undefined;
}

/** What the person sees, in order. */
export type TurnOutput =
  | { type: 'text'; text: string }
  /** A tool returned; `sources` are the documents a knowledge search cited. */
  | { type: 'tool'; name: string; ok: boolean; sources?: KnowledgeSource[] }
  | { type: 'done'; answer: string; tools: string[] }
  | { type: 'failed'; message: string; beforeOutput: boolean };

/** What a caller may change of a session's settings. */
export interface SessionChanges {
  route?: Route | undefined;
  systemPrompt?: string | undefined;
  tenant?: string | undefined;
}

/** Saves new settings under the turn's lease; returns the route the session now uses. */
export async function configureSession(
  store: SessionStore,
  turn: SessionTurn,
  changes: SessionChanges,
  catalog: ModelCatalog,
): Promise<Route> {
  const rev = await store.configure(turn.lease, changes);
  turn.update(rev, (s) => {
    if (changes.route) s.route = changes.route;
    if (changes.systemPrompt !== undefined) s.systemPrompt = changes.systemPrompt;
    if (changes.tenant !== undefined) s.tenant = changes.tenant;
  });
  return effectiveRoute(turn.snapshot, catalog);
}

/** Forgets the conversation under the turn's lease; the settings stay. */
export async function clearSession(store: SessionStore, turn: SessionTurn): Promise<void> {
  const rev = await store.clearHistory(turn.lease);
  turn.update(rev, (s) => {
    s.window = [];
    s.messageCount = 0;
  });
}

/** The route a session uses: its own, else the service default. */
export function effectiveRoute(snapshot: Pick<SessionSnapshot, 'route'>, catalog: ModelCatalog): Route {
  if (snapshot.route) return snapshot.route;
  const fallback = catalog.defaultRef;
  return fallback
    ? { provider: fallback.provider, model: fallback.model }
    : { provider: 'openai-compatible', model: '' };
}

/** The history the model sees: the latest messages, oldest dropped past the character budget. */
export function historyWindow(messages: StoredMessage[], settings: ChatSettings): ModelMessage[] {
  const window: ModelMessage[] = [];
  let chars = 0;
  for (const message of messages.slice(-settings.historyMessages).reverse()) {
    chars += message.content.length;
    if (chars > settings.historyChars) break;
    window.unshift({ role: message.role, content: message.content });
  }
  return window;
}

/**
 * Resolves the model now (so an unconfigured model is a plain 503 before any
 * byte is streamed) and returns the turn as a stream of outputs. The caller
 * releases `turn` afterwards.
 */
export function startChatTurn(
  deps: ChatDependencies,
  turn: SessionTurn,
  caller: TurnCaller,
  request: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<TurnOutput> {
  const route = request.route ?? effectiveRoute(turn.snapshot, deps.catalog);
  const model = deps.catalog.resolve(
    { provider: route.provider, model: route.model ?? '' },
    { useGateway: route.useGateway === true },
  );
  return runChatTurn(deps, turn, caller, request, model, signal);
}

async function* runChatTurn(
  deps: ChatDependencies,
  turn: SessionTurn,
  caller: TurnCaller,
  request: ChatRequest,
  model: LanguageModel,
  signal: AbortSignal,
): AsyncGenerator<TurnOutput> {
  const { snapshot } = turn;
  const startedAt = Date.now();
  const tools = agentTools({ ...deps.tools, ...caller, tenant: snapshot.tenant, signal });
  let answered = false;
  let finish: Extract<ChatEvent, { type: 'finish' }> | undefined;
  for await (const event of streamChat({
    model,
    system: snapshot.systemPrompt ?? deps.settings.systemPrompt,
    messages: [...historyWindow(snapshot.window, deps.settings), { role: 'user', content: request.message }],
    tools,
    maxSteps: MAX_TOOL_STEPS,
    abortSignal: signal,
    timeoutMs: deps.settings.timeoutMs,
  })) {
    if (event.type === 'text') {
      answered = true;
      yield { type: 'text', text: event.text };
    } else if (event.type === 'tool-result') {
      const sources = event.toolName === 'knowledgeBaseSearch' ? sourcesOf(event.output) : [];
      yield { type: 'tool', name: event.toolName, ok: true, ...(sources.length ? { sources } : {}) };
    } else if (event.type === 'tool-error') {
      yield { type: 'tool', name: event.toolName, ok: false };
    } else if (event.type === 'error') {
      yield { type: 'failed', message: event.failure.message, beforeOutput: !answered };
      return;
    } else if (event.type === 'finish') {
      finish = event;
    }
  }
  if (!finish) return;

  let answer = finish.text;
  if (finish.finishReason === 'tool-calls') {
    const limit = stepLimitNote(request.locale);
    const note = answer ? `\n\n${limit}` : limit;
    answer += note;
    yield { type: 'text', text: note };
  }
  yield* saveTurn(deps.store, turn, request, startedAt, answer, [...new Set(finish.toolNames)]);
}

/** Saves the finished exchange under the turn's lease, then says `done` (or that the lease was lost). */
export async function* saveTurn(
  store: SessionStore,
  turn: SessionTurn,
  request: ChatRequest,
  startedAt: number,
  answer: string,
  toolNames: string[],
): AsyncGenerator<TurnOutput> {
  const messages: StoredMessage[] = [
    { id: newId('msg'), role: 'user', content: request.message, ts: startedAt },
    {
      id: newId('msg'),
      role: 'assistant',
      content: answer,
      ts: Date.now(),
      ...(toolNames.length ? { tools: toolNames } : {}),
    },
  ];
  try {
    const rev = await store.commitTurn(turn.lease, messages, request.route);
    turn.update(rev, (s) => {
      s.window.push(...messages);
      s.messageCount += messages.length;
      if (request.route) s.route = request.route;
    });
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
    yield { type: 'failed', message: 'The session was taken over by another request.', beforeOutput: false };
    return;
  }
  yield { type: 'done', answer, tools: toolNames };
}
