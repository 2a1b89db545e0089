/**
 * @module relayer/contract-calls
 * Contract calls signed with the relayer key (EAS schema registrations and delegated
 * attestations), sharing the anchors' nonce sequence. A call is simulated first, so a
 * revert is refused without spending a nonce; the nonce is taken and the transaction
 * broadcast inside one database transaction, so a broadcast the node refuses gives the
 * nonce back. (If the node took it but its answer was lost, the next anchor finds its
 * nonce used and the poller re-nonces it.) The caller waits for the receipt.
 */
import { type Database, transaction } from '@xv/platform';
import {
  BaseError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { errors } from '../errors.js';
import type { Funds } from './funds.js';
import type { Nonces } from './nonces.js';
import type { Sender } from './sending.js';
import type { ChainTables } from './tables.js';

const RECEIPT_TIMEOUT_MS = 60_000;

export class ContractCalls {
  constructor(
    private readonly database: Database<ChainTables>,
    private readonly parts: { nonces: Nonces; sender: Sender; funds: Funds },
  ) {}

  async send(call: { to: Hex; data: Hex }): Promise<TransactionReceipt> {
    const { nonces, sender, funds } = this.parts;
    const { client, account } = sender.wallet;
    await funds.require();
    const estimated = await client
      .estimateGas({ account, to: call.to, data: call.data })
      .catch((error: unknown) => {
        throw isRevert(error) ? errors.eas_call_rejected(revertReason(error)) : error;
      });
    const txHash = await nonces.exclusive(async () => {
      const fees = await sender.currentFees();
      return transaction(this.database, async (db) => {
        const nonce = await nonces.take(db);
        const rawTx = await account.signTransaction({
          type: 'eip1559',
          chainId: sender.chainId,
          to: call.to,
          data: call.data,
          value: 0n,
          nonce,
          // Room for state the estimate did not see (a nonce or registry entry changing).
          gas: (estimated * 12n) / 10n,
          ...fees,
        });
        return client.sendRawTransaction({ serializedTransaction: rawTx });
      });
    });
    const receipt = await client.waitForTransactionReceipt({ hash: txHash, timeout: RECEIPT_TIMEOUT_MS });
    if (receipt.status !== 'success')
      throw errors.eas_call_rejected('The transaction was mined but reverted.');
    return receipt;
  }
}

export function isRevert(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk(
      (cause) => cause instanceof ContractFunctionRevertedError || cause instanceof ExecutionRevertedError,
    ) !== null
  );
}

/** The contract's custom error name (`InvalidSignature`, `AlreadyExists`, …) when the node gives one. */
export function revertReason(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName)
      return `The contract refused the call: ${reverted.data.errorName}.`;
    return `The contract refused the call: ${error.shortMessage}`;
  }
  return 'The contract refused the call.';
}
