/**
 * @module relayer/explorer
 * What the explorer page shows of one transaction of the chain: who sent it, to
 * whom, in which block, how many confirmations, and the hash it carries when the
 * relayer sent it.
 */
import type { Hex } from 'viem';
import { errors } from '../errors.js';
import type { RelayerWallet } from './wallet.js';

export interface TransactionDetails {
  hash: Hex;
  chainId: number;
  status: 'success' | 'reverted' | 'pending';
  blockNumber: bigint | null;
  /** When its block was mined (the block's timestamp). */
  minedAt: Date | null;
  confirmations: number;
  from: Hex;
  byRelayer: boolean;
  to: Hex | null;
  nonce: number;
  input: Hex;
  /** The fingerprint an anchor carries (a transaction of the relayer whose data is 32 bytes). */
  anchored: Hex | null;
}

export async function transactionDetails(wallet: RelayerWallet, txHash: Hex): Promise<TransactionDetails> {
  const client = wallet.client;
  const tx = await client.getTransaction({ hash: txHash }).catch((error: Error) => {
    if (error.name === 'TransactionNotFoundError') throw errors.transaction_not_found();
    throw error;
  });
  const receipt = await client.getTransactionReceipt({ hash: txHash }).catch((error: Error) => {
    if (error.name === 'TransactionReceiptNotFoundError') return null;
    throw error;
  });
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const block = receipt ? await client.getBlock({ blockNumber: receipt.blockNumber }) : null;
  const byRelayer = tx.from.toLowerCase() === wallet.account.address.toLowerCase();
  return {
    hash: tx.hash,
    chainId: wallet.chainId,
    status: receipt ? (receipt.status === 'success' ? 'success' : 'reverted') : 'pending',
    blockNumber: receipt ? receipt.blockNumber : null,
    minedAt: block ? new Date(Number(block.timestamp) * 1000) : null,
    confirmations: receipt ? Number(head - receipt.blockNumber + 1n) : 0,
    from: tx.from,
    byRelayer,
    to: tx.to,
    nonce: tx.nonce,
    input: tx.input,
    anchored: byRelayer && /^0x[0-9a-f]{64}$/i.test(tx.input) ? tx.input : null,
  };
}
