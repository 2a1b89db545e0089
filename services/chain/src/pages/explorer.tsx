/**
 * @module pages/explorer
 * A small block-explorer page for one transaction of the local chain: who sent it,
 * to whom, in which block, how many confirmations, and the hash it carries.
 */
import type { Hex } from 'viem';
import { errors } from '../errors.js';
import type { Relayer } from '../relayer/relayer.js';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{font-weight:600}dd{margin:0;word-break:break-all;font-family:ui-monospace,monospace}
.ok{color:#0a6b2d}.warn{color:#8a5300}`;

export async function explorerPage(relayer: Relayer, txHash: Hex): Promise<string> {
  const client = relayer.wallet.client;
  const tx = await client.getTransaction({ hash: txHash }).catch((error: Error) => {
    if (error.name === 'TransactionNotFoundError') throw errors.transaction_not_found();
    throw error;
  });
  const receipt = await client.getTransactionReceipt({ hash: txHash }).catch((error: Error) => {
    if (error.name === 'TransactionReceiptNotFoundError') return null;
    throw error;
  });
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const confirmations = receipt ? Number(head - receipt.blockNumber + 1n) : 0;
  const byRelayer = tx.from.toLowerCase() === relayer.address.toLowerCase();
  const anchored = byRelayer && /^0x[0-9a-f]{64}$/i.test(tx.input) ? tx.input : null;
  const status = receipt ? (receipt.status === 'success' ? 'success' : 'reverted') : 'pending';
  const page = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Transaction {txHash.slice(0, 10)}… · XV chain</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>
          <h1>Transaction</h1>
          <dl>
            <dt>Hash</dt>
            <dd>{tx.hash}</dd>
            <dt>Chain id</dt>
            <dd>{relayer.chainId}</dd>
            <dt>Status</dt>
            <dd class={status === 'success' ? 'ok' : 'warn'}>{status}</dd>
            <dt>Block</dt>
            <dd>{receipt ? String(receipt.blockNumber) : 'not yet mined'}</dd>
            <dt>Confirmations</dt>
            <dd>{confirmations}</dd>
            <dt>From</dt>
            <dd>
              {tx.from}
              {byRelayer ? ' (the XV relayer)' : ''}
            </dd>
            <dt>To</dt>
            <dd>{tx.to ?? '(contract creation)'}</dd>
            <dt>Nonce</dt>
            <dd>{tx.nonce}</dd>
            <dt>Data</dt>
            <dd>{tx.input}</dd>
          </dl>
          {anchored ? (
            <p>
              This transaction anchors the fingerprint <code>{anchored}</code>: a SHA-256 manifest hash sealed
              by the XV trust service.
            </p>
          ) : null}
        </main>
      </body>
    </html>
  );
  return `<!doctype html>${page}`;
}
