/**
 * @module service
 * The chain relayer: the only holder of the on-chain key. It anchors 32-byte
 * fingerprints for the trust service (which authenticates with a shared service
 * credential), submits EAS schema registrations and delegated attestations (deploying
 * the EAS contracts on the local dev chain when it lacks them), and serves explorer
 * pages for the local chain.
 *
 * The relayer deploys EAS, not the launcher: tests, a relayer started on its own and the
 * launcher all meet a fresh chain through it, and it is the part that talks to the chain.
 */
import { relayerToken } from '@xv/platform';
import { defineService } from '@xv/platform/service';
import { resolveEasDeployment } from './eas/deployment.js';
import { EasGateway } from './eas/gateway.js';
import { registerRoutes } from './http/routes.js';
import { migrations } from './migrations/index.js';
import { Relayer } from './relayer/relayer.js';
import type { ChainTables } from './relayer/tables.js';
import { connectWallet } from './relayer/wallet.js';
import { chainSettings } from './settings.js';

export const chainService = defineService<ChainTables>()({
  name: 'chain',
  description:
    'Chain relayer: the only holder of the on-chain key; anchors 32-byte fingerprints and submits EAS attestations on an EVM chain.',
  settings: chainSettings,
  migrations,
  async setup(app, { config, settings, database, logger, onClose }) {
    const token = relayerToken(config.token, settings.dataDir);
    const wallet = await connectWallet({ rpcUrl: config.rpcUrl, privateKey: config.privateKey });
    if (wallet.devKey)
      logger.warn(
        { address: wallet.account.address },
        'XV_CHAIN_PRIVATE_KEY is not set: using the well-known anvil development key (local chain only)',
      );
    const relayer = new Relayer(database, wallet, config, logger);
    await relayer.start();
    onClose(() => relayer.stop());
    const deployment = await resolveEasDeployment(wallet, config, logger);
    const eas =
      deployment && new EasGateway(deployment, wallet.client, wallet.account.address, relayer.calls);
    await registerRoutes(app, {
      relayer,
      eas,
      token,
      confirmations: config.confirmations,
      explorerBase: config.explorerUrl ?? settings.services.chain.url,
    });
  },
});
