/**
 * @module anchoring/chain-check
 * Confirms an anchor against the chain itself, not the relayer's word: the
 * transaction exists, succeeded, carries the manifest hash as its calldata and was
 * sent by the relayer's address.
 */
import { createPublicClient, type Hex, http, type PublicClient } from 'viem';

export interface ChainEvidence {
  onChain: boolean;
  blockNumber: number | null;
  confirmations: number;
  /** What failed, when `onChain` is false. */
  problem?: 'not_found' | 'pending' | 'reverted' | 'wrong_data' | 'wrong_sender' | 'chain_unreachable';
}

export class ChainReader {
  private readonly client: PublicClient;

  constructor(rpcUrl: string) {
    this.client = createPublicClient({ transport: http(rpcUrl, { timeout: 5000, retryCount: 0 }) });
  }

  async confirm(txHash: string, expected: { ref: string; from: string }): Promise<ChainEvidence> {
    const none = (problem: ChainEvidence['problem']): ChainEvidence => ({
      onChain: false,
      blockNumber: null,
      confirmations: 0,
      problem,
    });
    try {
      const tx = await this.client
        .getTransaction({ hash: txHash as Hex })
        .catch(notFound('TransactionNotFoundError'));
      if (!tx) return none('not_found');
      if (tx.input.toLowerCase() !== expected.ref.toLowerCase()) return none('wrong_data');
      if (tx.from.toLowerCase() !== expected.from.toLowerCase()) return none('wrong_sender');
      const receipt = await this.client
        .getTransactionReceipt({ hash: txHash as Hex })
        .catch(notFound('TransactionReceiptNotFoundError'));
      if (!receipt) return none('pending');
      if (receipt.status !== 'success') return none('reverted');
      const head = await this.client.getBlockNumber({ cacheTime: 0 });
      return {
        onChain: true,
        blockNumber: Number(receipt.blockNumber),
        confirmations: Number(head - receipt.blockNumber + 1n),
      };
    } catch {
      return none('chain_unreachable');
    }
  }
}

function notFound(name: string) {
  return (error: Error) => {
    if (error.name === name) return null;
    throw error;
  };
}
