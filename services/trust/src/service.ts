/**
 * @module service
 * The trust service: seals records and AI results into signed manifests and
 * receipts, anchors manifest hashes through the chain relayer (it holds no on-chain
 * key), issues EAS-style attestations, and lets anyone verify.
 */
import { relayerToken } from '@xv/chain';
import { createAuthGuard, defineService } from '@xv/platform';
import { ChainReader } from './anchoring/chain-check.js';
import { RelayerClient } from './anchoring/relayer-client.js';
import { Attestations } from './attestations/attestations.js';
import type { TrustDb } from './db.js';
import { IssuerDirectory } from './issuers/directory.js';
import { KeyEncryptionKey } from './keys/kek.js';
import { Keyring } from './keys/keyring.js';
import { migrations } from './migrations/index.js';
import { registerApi } from './routes/api.js';
import { registerPages } from './routes/pages.js';
import { Receipts } from './seal/receipts.js';
import { trustSettings } from './settings.js';

export const trustService = defineService({
  name: 'trust',
  description:
    'Trust sealing: signed manifests, receipts, anchoring, attestations and independent verification.',
  settings: trustSettings,
  migrations,
  setup(app, ctx) {
    const { config, settings } = ctx;
    const db = ctx.database.kysely as TrustDb;
    const trustUrl = settings.services.trust.url;
    const identityUrl = settings.services.identity.url;
    if (config.demo) ctx.logger.warn('XV_TRUST_DEMO is on: anonymous seals are signed by the demo issuer');
    const keyring = new Keyring(db, KeyEncryptionKey.load(config.kek, settings.dataDir));
    const directory = new IssuerDirectory({ identityUrl, trustUrl, demo: config.demo });
    const relayer = new RelayerClient({
      url: settings.services.chain.url,
      token: relayerToken(config.chainToken, settings.dataDir),
    });
    const receipts = new Receipts({
      db,
      keyring,
      directory,
      relayer,
      chain: new ChainReader(config.chainRpcUrl),
      trustUrl,
      inputLimitBytes: config.storeInputLimitBytes,
    });
    const attestations = new Attestations({
      db,
      keyring,
      trustUrl,
      eas: { chainId: config.easChainId, contract: config.easContract, version: config.easVersion },
    });
    const guard = createAuthGuard({ sso: ctx.sso, identityUrl });
    registerApi(app, { ctx, receipts, attestations, keyring, directory, guard, demo: config.demo });
    registerPages(app, { receipts, attestations });
  },
});
