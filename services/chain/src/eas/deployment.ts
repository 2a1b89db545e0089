/**
 * @module eas/deployment
 * Where the EAS contracts live on the relayer's chain, decided once at start:
 * - `XV_CHAIN_EAS_ADDRESS` set: that contract (its registry is the one it names, and
 *   must equal `XV_CHAIN_SCHEMA_REGISTRY_ADDRESS` when that is set too);
 * - else, on the local dev chain: the deterministic deployment of contracts.ts, made
 *   now when the chain does not hold it yet (anvil keeps its state across restarts, so
 *   this happens once per data folder);
 * - else: none, and the EAS routes answer `eas_not_configured`.
 */
import { type Logger, SettingsError } from '@xv/platform';
import {
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from 'viem';
import type { RelayerWallet } from '../relayer/wallet.js';
import {
  DEV_EAS_ADDRESS,
  DEV_EAS_DEPLOYER,
  DEV_SCHEMA_REGISTRY_ADDRESS,
  easArtifact,
  schemaRegistryArtifact,
} from './contracts.js';

export interface EasDeployment {
  chainId: number;
  eas: Hex;
  schemaRegistry: Hex;
  /** The EAS contract's `version()`: the version of its EIP-712 domains. */
  version: string;
  /** True for the dev chain's own deployment. */
  devDeployment: boolean;
}

export interface EasSettings {
  rpcUrl: string;
  easAddress: string | undefined;
  schemaRegistryAddress: string | undefined;
}

const CODE_WAIT_MS = 30_000;

export async function resolveEasDeployment(
  wallet: RelayerWallet,
  settings: EasSettings,
  logger: Logger,
): Promise<EasDeployment | undefined> {
  if (settings.easAddress) return configuredDeployment(wallet, settings);
  if (!wallet.devKey) {
    logger.warn(
      'XV_CHAIN_EAS_ADDRESS is not set on this chain: on-chain attestations and EAS domains are unavailable',
    );
    return undefined;
  }
  await deployOnDevChain(wallet.client, settings.rpcUrl, logger);
  return describe(wallet.client, wallet.chainId, DEV_EAS_ADDRESS, true);
}

async function configuredDeployment(wallet: RelayerWallet, settings: EasSettings): Promise<EasDeployment> {
  const eas = getAddress(settings.easAddress as string);
  if (!(await hasCode(wallet.client, eas)))
    throw new SettingsError([
      { env: 'XV_CHAIN_EAS_ADDRESS', message: `no contract at ${eas} on chain ${wallet.chainId}` },
    ]);
  const deployment = await describe(wallet.client, wallet.chainId, eas, false);
  const expected = settings.schemaRegistryAddress;
  if (expected && expected.toLowerCase() !== deployment.schemaRegistry.toLowerCase())
    throw new SettingsError([
      {
        env: 'XV_CHAIN_SCHEMA_REGISTRY_ADDRESS',
        message: `the EAS contract at ${eas} uses the registry ${deployment.schemaRegistry}, not ${expected}`,
      },
    ]);
  return deployment;
}

async function describe(client: PublicClient, chainId: number, eas: Hex, devDeployment: boolean) {
  const read = (functionName: 'version' | 'getSchemaRegistry') =>
    client.readContract({ address: eas, abi: easArtifact.abi, functionName });
  const [version, schemaRegistry] = await Promise.all([read('version'), read('getSchemaRegistry')]);
  return { chainId, eas, schemaRegistry: schemaRegistry as Hex, version: version as string, devDeployment };
}

/**
 * Deploys the registry (deployer nonce 0), then EAS on it (nonce 1), each only when its
 * address holds no code yet. Two relayers starting together may both send: the second
 * transaction is refused (same nonce), and both wait for the code to appear.
 */
async function deployOnDevChain(client: PublicClient, rpcUrl: string, logger: Logger): Promise<void> {
  const steps = [
    { nonce: 0, address: DEV_SCHEMA_REGISTRY_ADDRESS, artifact: schemaRegistryArtifact, args: [] },
    { nonce: 1, address: DEV_EAS_ADDRESS, artifact: easArtifact, args: [DEV_SCHEMA_REGISTRY_ADDRESS] },
  ];
  const wallet = createWalletClient({ account: DEV_EAS_DEPLOYER, transport: http(rpcUrl) });
  for (const step of steps) {
    if (await hasCode(client, step.address)) continue;
    const sent = await client.getTransactionCount({ address: DEV_EAS_DEPLOYER.address, blockTag: 'pending' });
    if (sent > step.nonce)
      logger.info({ address: step.address }, 'EAS deployment already sent; waiting for it to be mined');
    else {
      await fundDeployer(client, rpcUrl);
      await wallet
        .deployContract({
          abi: step.artifact.abi,
          bytecode: step.artifact.bytecode,
          args: step.args,
          nonce: step.nonce,
          chain: null,
        })
        .catch((error: Error) =>
          logger.info({ err: error.message.split('\n')[0] }, 'EAS deployment refused; waiting for the code'),
        );
    }
    await waitForCode(client, step.address);
    logger.info(
      { address: step.address },
      `${step.artifact === easArtifact ? 'EAS' : 'SchemaRegistry'} deployed`,
    );
  }
}

/** The deployer holds no ether of its own: the dev chain gives it some. */
async function fundDeployer(client: PublicClient, rpcUrl: string): Promise<void> {
  const enough = parseEther('1');
  if ((await client.getBalance({ address: DEV_EAS_DEPLOYER.address })) >= enough) return;
  await createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).setBalance({
    address: DEV_EAS_DEPLOYER.address,
    value: enough * 10n,
  });
}

async function hasCode(client: PublicClient, address: Hex): Promise<boolean> {
  const code = await client.getCode({ address });
  return code !== undefined && code !== '0x';
}

async function waitForCode(client: PublicClient, address: Hex): Promise<void> {
  const deadline = Date.now() + CODE_WAIT_MS;
  while (!(await hasCode(client, address))) {
    if (Date.now() > deadline) throw new Error(`no contract appeared at ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
