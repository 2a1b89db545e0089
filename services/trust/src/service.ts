/**
 * @module service
 * The trust service: seals records and AI results into signed manifests and
 * receipts, anchors manifest hashes through the chain relayer (it holds no on-chain
 * key), issues EAS attestations (off chain, or on chain through the relayer), and lets anyone verify.
 */
import { relayerToken } from '@xv/platform';
import { defineService } from '@xv/platform/service';
import type { TrustTables } from './db.js';
import { registerHttp } from './http/routes.js';
import { migrations } from './migrations/index.js';
import { trustSettings } from './settings.js';
import { createTrust } from './trust.js';

export const trustService = defineService<TrustTables>()({
  name: 'trust',
  description:
    'Trust sealing: signed manifests, receipts, anchoring, attestations and independent verification.',
  settings: trustSettings,
  migrations,
  async setup(app, ctx) {
    const { config, settings } = ctx;
    if (config.demo) ctx.logger.warn('XV_TRUST_DEMO is on: anonymous seals are signed by the demo issuer');
    const trust = createTrust({
      database: ctx.database,
      kek: config.kek,
      dataDir: settings.dataDir,
      demo: config.demo,
      trustUrl: settings.services.trust.url,
      identityUrl: settings.services.identity.url,
      relayer: { url: settings.services.chain.url, token: relayerToken(config.chainToken, settings.dataDir) },
      chainRpcUrl: config.chainRpcUrl,
      inputLimitBytes: config.storeInputLimitBytes,
      anchorDailyBudget: config.anchorDailyBudget,
      signingThreads: config.signingThreads,
    });
    ctx.onClose(trust.close);
    await registerHttp(app, {
      ctx,
      trust,
      perMinute: {
        seal: config.sealPerMinute,
        attestation: config.attestPerMinute,
        anchor: config.anchorPerMinute,
      },
    });
  },
});
