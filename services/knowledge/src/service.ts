/**
 * @module service
 * The knowledge service: its settings, migrations and routes.
 */
import { createRateLimiter, PublicOrganizations } from '@xv/platform';
import { defineService } from '@xv/platform/service';
import { Authenticator } from './auth.js';
import type { KnowledgeDatabase } from './db.js';
import { DocumentStore } from './documents/documents.js';
import { documentRoutes } from './documents/routes.js';
import type { Knowledge } from './knowledge.js';
import { mcpRoutes } from './mcp/mcp.js';
import { migrations } from './migrations/index.js';
import { openKnowledgeIndex } from './open-index.js';
import { pageRoutes } from './pages/routes.js';
import { searchRoutes } from './search/routes.js';
import { loadVectorExtension } from './search/vector-index.js';
import { knowledgeSettings } from './settings.js';
import { tokenRoutes } from './tokens/routes.js';
import { TokenStore } from './tokens/tokens.js';

export const knowledgeService = defineService()({
  name: 'knowledge',
  description:
    'Knowledge base: Markdown pushed from the desktop client, Maker-Checker review, hybrid search and an MCP server.',
  settings: knowledgeSettings,
  migrations,
  prepareDatabase: loadVectorExtension,
  async setup(app, ctx) {
    const database = ctx.database as KnowledgeDatabase;
    const tokens = new TokenStore(database, ctx.memberships);
    const index = await openKnowledgeIndex(database, ctx.config, ctx.logger);
    const failedTokenLimiter = await createRateLimiter(ctx.database, {
      keyPrefix: 'kb-bad-token',
      points: 30,
      durationSeconds: 60,
      blockSeconds: 300,
    });
    const publicSearchLimiter = await createRateLimiter(ctx.database, {
      keyPrefix: 'kb-public-search-ip',
      points: ctx.config.publicSearchPerMinute,
      durationSeconds: 60,
    });
    const k: Knowledge = {
      auth: new Authenticator({
        tokens,
        sso: ctx.sso,
        failedTokenLimiter,
        trustProxy: ctx.settings.trustProxy,
      }),
      tokens,
      documents: new DocumentStore(database, index),
      index,
      logger: ctx.logger,
      organizations: new PublicOrganizations({ identityUrl: ctx.settings.services.identity.url }),
      publicSearchLimiter,
      trustProxy: ctx.settings.trustProxy,
      url: ctx.settings.services.knowledge.url,
      identityUrl: ctx.settings.services.identity.url,
      sharedDomain: ctx.settings.sharedDomain,
    };
    tokenRoutes(app, k);
    documentRoutes(app, k);
    searchRoutes(app, k);
    mcpRoutes(app, k, { allowedHosts: ctx.config.mcpAllowedHosts });
    pageRoutes(app, k);
  },
});
