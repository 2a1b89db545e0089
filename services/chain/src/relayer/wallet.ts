/**
 * @module relayer/wallet
 * The relayer's on-chain identity: the EVM node it talks to, its chain id, and its
 * signing account. Without `XV_CHAIN_PRIVATE_KEY` only a local anvil chain (id
 * 31337) is accepted, with anvil's first well-known development account.
 */
import { SettingsError } from '@xv/platform';
import { createPublicClient, type Hex, http, type PublicClient } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

export const ANVIL_CHAIN_ID = 31337;
/** Anvil's first default account: public knowledge, fit only for a local dev chain. */
export const ANVIL_DEV_PRIVATE_KEY: Hex =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

export interface RelayerWallet {
  client: PublicClient;
  account: PrivateKeyAccount;
  chainId: number;
  /** True when the well-known anvil key is in use. */
  devKey: boolean;
}

export async function connectWallet(options: {
  rpcUrl: string;
  privateKey: string | undefined;
  connectTimeoutMs?: number;
}): Promise<RelayerWallet> {
  const client = createPublicClient({ transport: http(options.rpcUrl, { timeout: 10_000, retryCount: 1 }) });
  const chainId = await waitForChainId(client, options.connectTimeoutMs ?? 15_000);
  if (options.privateKey)
    return { client, account: privateKeyToAccount(options.privateKey as Hex), chainId, devKey: false };
  if (chainId !== ANVIL_CHAIN_ID)
    throw new SettingsError([
      {
        env: 'XV_CHAIN_PRIVATE_KEY',
        message: `must be set: the chain at XV_CHAIN_RPC_URL has id ${chainId}, not the local dev chain (${ANVIL_CHAIN_ID})`,
      },
    ]);
  return { client, account: privateKeyToAccount(ANVIL_DEV_PRIVATE_KEY), chainId, devKey: true };
}

/** The node may still be starting (the launcher starts it just before us): ask again for a while. */
async function waitForChainId(client: PublicClient, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await client.getChainId();
    } catch (error) {
      if (Date.now() > deadline)
        throw new SettingsError([
          { env: 'XV_CHAIN_RPC_URL', message: `no EVM node answers there (${(error as Error).name})` },
        ]);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
