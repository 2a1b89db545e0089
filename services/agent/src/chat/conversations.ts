/**
 * @module chat/conversations
 * What the agent API does with a caller's session, in plain values: read its
 * state, change its settings, clear it, answer a message, list the caller's
 * tickets. A session is found among the caller's own (`access/principal.ts`);
 * work that changes it waits for the session's turn (one at a time, across
 * instances) and is done by `chat/turn.ts`.
 */
import type { PublicOrganizations } from '@xv/platform';
import type { ModelCatalog } from '@xv/platform/ai';
import { type Principal, sessionKey } from '../access/principal.js';
import { accessTo, checkTenantChoice, sessionDefaults } from '../access/tenancy.js';
import { errors } from '../errors.js';
import { type SessionTurn, TurnWaitTimeout } from '../sessions/actor.js';
import type { SessionRegistry } from '../sessions/registry.js';
import type { Route, SessionStore, StoredMessage } from '../sessions/store.js';
import type { Ticket, TicketDesk } from '../tools/tickets.js';
import { answerFromKnowledge } from './knowledge-answer.js';
import {
  type ChatDependencies,
  type ChatRequest,
  clearSession,
  configureSession,
  effectiveRoute,
  type SessionChanges,
  startChatTurn,
  type TurnOutput,
} from './turn.js';

/** The permission that shows a member their organization's tickets (admins and support). */
const TICKETS_READ = 'tickets:read';

export interface ConversationsOptions {
  registry: SessionRegistry;
  store: SessionStore;
  tickets: TicketDesk;
  catalog: ModelCatalog;
  chat: ChatDependencies;
  organizations: PublicOrganizations;
}

export interface SessionState {
  session: string;
  tenant: string;
  route: Route;
  systemPrompt: string;
  messageCount: number;
  messages: StoredMessage[];
}

/** An answer that has started: read `first`, then the rest of `outputs`; release `turn` when done. */
export interface StartedAnswer {
  turn: SessionTurn;
  outputs: AsyncGenerator<TurnOutput>;
  first: IteratorResult<TurnOutput>;
}

export class Conversations {
  constructor(private readonly options: ConversationsOptions) {}

  async state(principal: Principal, id: string): Promise<SessionState> {
    const { store, catalog, chat } = this.options;
    const key = sessionKey(principal, id);
    const [record, messages] = await Promise.all([store.read(key), store.messages(key)]);
    return {
      session: id,
      tenant: record?.tenant ?? sessionDefaults(principal).tenant,
      route: effectiveRoute(record ?? { route: null }, catalog),
      systemPrompt: record?.systemPrompt ?? chat.settings.systemPrompt,
      messageCount: messages.length,
      messages,
    };
  }

  /** Changes the session's settings; a tenant the caller may not name is refused (403). */
  async configure(
    principal: Principal,
    id: string,
    changes: SessionChanges,
    signal?: AbortSignal,
  ): Promise<Route> {
    const { store, catalog, organizations } = this.options;
    if (changes.tenant !== undefined) await checkTenantChoice(changes.tenant, principal, organizations);
    return this.withTurn(principal, id, signal, (turn) => configureSession(store, turn, changes, catalog));
  }

  /** Forgets the conversation; the settings stay. */
  async reset(principal: Principal, id: string, signal?: AbortSignal): Promise<void> {
    await this.withTurn(principal, id, signal, (turn) => clearSession(this.options.store, turn));
  }

  /**
   * Waits for the session's turn and starts the answer. A failure before the first
   * output (no model configured, the model failing at once) releases the turn and
   * is thrown, so it becomes a plain error.
   */
  async startAnswer(
    principal: Principal,
    id: string,
    request: ChatRequest,
    signal: AbortSignal,
  ): Promise<StartedAnswer> {
    const turn = await this.takeTurn(principal, id, signal);
    try {
      // Checked at every turn: a person who left the organization, or an assistant made private, opens nothing.
      const access = await accessTo(turn.snapshot.tenant, principal, this.options.organizations);
      const caller = { session: id, owner: principal.owner, access };
      // With no model configured at all and none named by the message, the knowledge base answers in quotes.
      const outputs =
        !request.route && !this.options.catalog.defaultRef
          ? answerFromKnowledge(this.options.chat, turn, caller, request, signal)
          : startChatTurn(this.options.chat, turn, caller, request, signal);
      const first = await outputs.next();
      if (!first.done && first.value.type === 'failed' && first.value.beforeOutput)
        throw errors.model_failed(`The model failed before answering: ${first.value.message}`);
      return { turn, outputs, first };
    } catch (error) {
      await turn.release();
      throw error;
    }
  }

  /** Tickets the caller opened, and their active organization's when they hold `tickets:read` there. */
  tickets(principal: Principal, session: string): Promise<Ticket[]> {
    const staff =
      principal.kind === 'person' && principal.active?.permissions.includes(TICKETS_READ)
        ? [principal.active.org_id]
        : [];
    return this.options.tickets.list({ owner: principal.owner, session, orgIds: staff });
  }

  /** Waits for the turn of the caller's session `id`; 503 `session_busy` past the wait limit. */
  private async takeTurn(principal: Principal, id: string, signal?: AbortSignal): Promise<SessionTurn> {
    try {
      const actor = this.options.registry.get(sessionKey(principal, id), sessionDefaults(principal));
      return await actor.acquire(signal);
    } catch (error) {
      if (error instanceof TurnWaitTimeout) throw errors.session_busy();
      // The client left while waiting its turn: nobody reads the answer, and it is no failure of ours.
      if (signal?.aborted) throw errors.cancelled();
      throw error;
    }
  }

  private async withTurn<T>(
    principal: Principal,
    id: string,
    signal: AbortSignal | undefined,
    work: (turn: SessionTurn) => Promise<T>,
  ): Promise<T> {
    const turn = await this.takeTurn(principal, id, signal);
    try {
      return await work(turn);
    } finally {
      await turn.release();
    }
  }
}
