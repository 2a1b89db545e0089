/**
 * @module service
 * The orchestration service: model routing with fallback, durable declarative
 * workflows and lead capture. Every endpoint is public; each is limited per
 * client IP (in PostgreSQL when the service runs on it, so all instances share
 * the budget).
 */
import { createRateLimiter, SettingsError } from '@xv/platform';
import { publicCors } from '@xv/platform/http';
import { defineService } from '@xv/platform/service';
import type { Tables } from './db.js';
import { registerLeadRoutes } from './http/leads.js';
import { registerRouterRoutes } from './http/router.js';
import { registerWorkflowRoutes } from './http/workflows.js';
import { altchaChallenge, type BotChallenge, noChallenge, turnstileChallenge } from './leads/challenge.js';
import { migrations } from './migrations/index.js';
import { ModelCooldown } from './router/cooldown.js';
import { describeModelFailure, modelLayerAsk } from './router/models.js';
import { ModelRouter } from './router/router.js';
import { readTiersFile, resolveTiers } from './router/tiers.js';
import { generatedSecret } from './secrets.js';
import { orchestrationSettings } from './settings.js';
import { builtInConnectors } from './workflows/connectors/index.js';
import { WorkflowEngine } from './workflows/engine.js';
import { BUILT_IN_WORKFLOWS_DIR, loadWorkflows } from './workflows/registry.js';
import { WorkflowRuns } from './workflows/submit.js';

export const orchestrationService = defineService<Tables>()({
  name: 'orchestration',
  description: 'Model routing with fallback, durable declarative workflows and lead capture.',
  settings: orchestrationSettings,
  migrations,
  async setup(app, { settings, config, database, logger, onClose }) {
    const { trustProxy } = settings;
    const perMinute = (keyPrefix: string, points: number) =>
      createRateLimiter(database, { keyPrefix, points, durationSeconds: 60 });

    app.use('/api/*', publicCors());

    // Router
    const tiersSpec = config.routerTiersFile ? readTiersFile(config.routerTiersFile) : config.routerTiers;
    const router = new ModelRouter(
      {
        tiers: resolveTiers(tiersSpec, config.modelName),
        ask: modelLayerAsk(config),
        cooldown: new ModelCooldown({
          failures: config.cooldownFailures,
          windowMs: config.cooldownWindowSeconds * 1000,
          cooldownMs: config.cooldownSeconds * 1000,
        }),
        modelTimeoutMs: config.modelTimeoutMs,
      },
      describeModelFailure,
    );
    const readLimiter = await perMinute('orch-read', config.readPerMinute);
    registerRouterRoutes(app, {
      router,
      limiter: await perMinute('orch-route', config.routePerMinute),
      trustProxy,
    });

    // Workflows
    const connectors = builtInConnectors({
      database,
      httpAllowedHosts: config.httpAllowedHosts,
      kbUrl: settings.services.knowledge.url,
      kbToken: config.kbToken,
      trustUrl: settings.services.trust.url,
      trustToken: config.trustToken,
    });
    const folders = [BUILT_IN_WORKFLOWS_DIR, ...(config.workflowsDir ? [config.workflowsDir] : [])];
    const registry = loadWorkflows(folders, connectors);
    const engine = new WorkflowEngine({
      database,
      registry,
      connectors,
      askTier: async (tier, prompt, options) => (await router.route(tier, prompt, options)).answer,
      logger,
      stepTimeoutMs: config.stepTimeoutMs,
      leaseMs: config.leaseSeconds * 1000,
      duplicateWaitMs: config.duplicateWaitSeconds * 1000,
      singleInstance: database.dialect === 'sqlite',
    });
    // One bot challenge for every path that creates a lead: the lead form and lead-creating workflows.
    const challenge = await botChallenge();
    registerWorkflowRoutes(app, {
      runs: new WorkflowRuns(engine, registry, challenge),
      runLimiter: await perMinute('orch-wf', config.workflowPerMinute),
      readLimiter,
      trustProxy,
    });
    engine.startResuming();
    onClose(() => engine.stop());

    // Leads
    await registerLeadRoutes(app, {
      database,
      challenge,
      turnstileSiteKey: config.turnstileSiteKey,
      adminToken: config.adminToken,
      trustProxy,
      leadLimiter: await perMinute('orch-lead', config.leadPerMinute),
      readLimiter,
      adminFailureLimiter: await createRateLimiter(database, {
        keyPrefix: 'orch-admin-fail',
        points: 10,
        durationSeconds: 15 * 60,
        blockSeconds: 15 * 60,
      }),
      page: config.leadPage,
    });

    async function botChallenge(): Promise<BotChallenge> {
      if (config.leadChallenge === 'altcha') {
        return altchaChallenge(database, {
          hmacKey: config.altchaHmacKey ?? (await generatedSecret(database, 'altcha_hmac_key')),
          maxNumber: config.altchaMaxNumber,
          expireSeconds: config.altchaExpireSeconds,
        });
      }
      if (config.leadChallenge === 'turnstile') {
        if (!config.turnstileSecretKey || !config.turnstileSiteKey) {
          throw new SettingsError([
            {
              env: 'XV_TURNSTILE_SECRET_KEY',
              message: 'XV_LEAD_CHALLENGE=turnstile needs XV_TURNSTILE_SECRET_KEY and XV_TURNSTILE_SITE_KEY',
            },
          ]);
        }
        return turnstileChallenge(database, {
          secretKey: config.turnstileSecretKey,
          verifyUrl: config.turnstileVerifyUrl,
        });
      }
      return noChallenge();
    }
  },
});
