/**
 * @module service
 * The agent service: one stateful object per chat session, streamed answers,
 * business tools, and a chat page.
 */

import { createRateLimiter, PublicOrganizations } from '@xv/platform';
import { createModelCatalog } from '@xv/platform/ai';
import { registerClientAssets } from '@xv/platform/pages';
import { defineService } from '@xv/platform/service';
import { Conversations } from './chat/conversations.js';
import type { Tables } from './db.js';
import { registerAgentApi } from './http/api.js';
import { registerChatPage } from './http/chat-page.js';
import { migrations } from './migrations/index.js';
import { SessionRegistry } from './sessions/registry.js';
import { SessionStore } from './sessions/store.js';
import { agentSettingsSpec } from './settings.js';
import { TicketDesk } from './tools/tickets.js';

export const agentService = defineService<Tables>()({
  name: 'agent',
  description: 'AI agents with one stateful object per session, streamed replies and business tools.',
  settings: agentSettingsSpec,
  migrations,
  async setup(app, { config, database, settings, logger, onClose, sso }) {
    if (config.retiredKbToken)
      logger.warn(
        'XV_AGENT_KB_TOKEN is no longer used and grants nothing: knowledgeBaseSearch searches as the signed-in person, or the public documents of an organization with a public assistant. Remove the setting and revoke the token.',
      );
    const catalog = createModelCatalog(config);
    const organizations = new PublicOrganizations({ identityUrl: settings.services.identity.url });
    const store = new SessionStore(database);
    const tickets = new TicketDesk(database, { webhook: config.ticketWebhook, logger });
    const registry = new SessionRegistry(store, {
      maxActors: config.maxActors,
      idleMs: config.idleSeconds * 1000,
      windowSize: config.historyMessages,
      leaseMs: config.leaseSeconds * 1000,
      waitMs: config.turnWaitSeconds * 1000,
    });
    onClose(() => registry.close());
    const chatLimiter = await createRateLimiter(database, {
      keyPrefix: 'agent-chat-ip',
      points: config.chatPerMinute,
      durationSeconds: 60,
    });
    const chatSettings = {
      systemPrompt: config.systemPrompt,
      historyMessages: config.historyMessages,
      historyChars: config.historyChars,
      timeoutMs: config.modelTimeoutSeconds * 1000,
    };
    const conversations = new Conversations({
      registry,
      store,
      tickets,
      catalog,
      organizations,
      chat: {
        catalog,
        store,
        settings: chatSettings,
        tools: { kbUrl: settings.services.knowledge.url, tickets },
      },
    });
    registerAgentApi(app, {
      conversations,
      maxMessageChars: config.maxMessageChars,
      modelTimeoutMs: chatSettings.timeoutMs,
      chatLimiter,
      trustProxy: settings.trustProxy,
      sharedDomain: settings.sharedDomain,
      sso,
    });
    registerChatPage(app, {
      assets: await registerClientAssets(app, import.meta.url),
      maxMessageChars: config.maxMessageChars,
      sso,
      sharedDomain: settings.sharedDomain,
      identityUrl: settings.services.identity.url,
      agentUrl: settings.services.agent.url,
      knowledgeUrl: settings.services.knowledge.url,
      modelConfigured: catalog.defaultRef !== undefined,
    });
  },
});
