/**
 * @module service
 * The knowledge service: its settings, migrations, the domain objects, and the
 * HTTP surfaces that serve them.
 */
import { createRateLimiter, PublicOrganizations } from '@xv/platform';
import { defineService } from '@xv/platform/service';
import type { KnowledgeTables } from './db.js';
import { DocumentReader } from './documents/read-model.js';
import { ReviewWorkflow } from './documents/review.js';
import { Authenticator } from './http/auth.js';
import { registerHttp } from './http/register.js';
import { migrations } from './migrations/index.js';
import { openKnowledgeIndex } from './search/open-index.js';
import { loadVectorExtension } from './search/vector-index.js';
import { knowledgeSettings } from './settings.js';
import { OAuthTokens } from './tokens/oauth.js';
import { TokenStore } from './tokens/tokens.js';

export const knowledgeService = defineService<KnowledgeTables>()({
  name: 'knowledge',
  description:
    'Knowledge base: Markdown pushed from the desktop client, Maker-Checker review, hybrid search and an MCP server.',
  settings: knowledgeSettings,
  migrations,
  prepareDatabase: loadVectorExtension,
  async setup(app, ctx) {
    const { database } = ctx;
    const tokens = new TokenStore(database, ctx.memberships);
    const index = await openKnowledgeIndex(database, ctx.config, ctx.logger);
    const failedTokenLimiter = await createRateLimiter(database, {
      keyPrefix: 'kb-bad-token',
      points: 30,
      durationSeconds: 60,
      blockSeconds: 300,
    });
    const publicSearchLimiter = await createRateLimiter(database, {
      keyPrefix: 'kb-public-search-ip',
      points: ctx.config.publicSearchPerMinute,
      durationSeconds: 60,
    });
    await registerHttp(
      app,
      {
        auth: new Authenticator({
          tokens,
          oauth: new OAuthTokens({
            identityUrl: ctx.settings.services.identity.url,
            audience: ctx.settings.services.knowledge.url,
            memberships: ctx.memberships,
          }),
          sso: ctx.sso,
          failedTokenLimiter,
          trustProxy: ctx.settings.trustProxy,
        }),
        tokens,
        review: new ReviewWorkflow(database, index),
        documents: new DocumentReader(database),
        index,
        logger: ctx.logger,
        organizations: new PublicOrganizations({ identityUrl: ctx.settings.services.identity.url }),
        publicSearchLimiter,
        trustProxy: ctx.settings.trustProxy,
        url: ctx.settings.services.knowledge.url,
        identityUrl: ctx.settings.services.identity.url,
        sharedDomain: ctx.settings.sharedDomain,
      },
      { mcpAllowedHosts: ctx.config.mcpAllowedHosts },
    );
  },
});
