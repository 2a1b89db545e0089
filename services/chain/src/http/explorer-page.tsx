/**
 * @module http/explorer-page
 * `GET /tx/{txHash}`: a small block-explorer page for one transaction of the local
 * chain (relayer/explorer.ts reads it).
 */
import type { App } from '@xv/platform/http';
import { type ClientAssets, renderPage } from '@xv/platform/pages';
import type { Hex } from 'viem';
import { errors } from '../errors.js';
import { type TransactionDetails, transactionDetails } from '../relayer/explorer.js';
import type { RelayerWallet } from '../relayer/wallet.js';
import { chainCall } from './anchors.js';

export function registerExplorerPage(app: App, wallet: RelayerWallet, assets: ClientAssets) {
  app.get('/tx/:txHash', async (c) => {
    const txHash = c.req.param('txHash');
    if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) throw errors.transaction_not_found();
    const tx = await chainCall(() => transactionDetails(wallet, txHash.toLowerCase() as Hex));
    return c.html(explorerPage(tx, assets));
  });
}

function explorerPage(tx: TransactionDetails, assets: ClientAssets): string {
  return renderPage({
    title: `Transaction ${tx.hash.slice(0, 10)}…`,
    product: 'XV Chain',
    home: '/docs',
    assets,
    stylesheets: ['explorer'],
    width: 'wide',
    children: (
      <section>
        <h1>Transaction</h1>
        <dl class="tx">
          <dt>Hash</dt>
          <dd>{tx.hash}</dd>
          <dt>Chain id</dt>
          <dd>{tx.chainId}</dd>
          <dt>Status</dt>
          <dd class={tx.status === 'success' ? 'ok' : 'warn'}>{tx.status}</dd>
          <dt>Block</dt>
          <dd>{tx.blockNumber !== null ? String(tx.blockNumber) : 'not yet mined'}</dd>
          <dt>Confirmations</dt>
          <dd>{tx.confirmations}</dd>
          <dt>From</dt>
          <dd>
            {tx.from}
            {tx.byRelayer ? ' (the XV relayer)' : ''}
          </dd>
          <dt>To</dt>
          <dd>{tx.to ?? '(contract creation)'}</dd>
          <dt>Nonce</dt>
          <dd>{tx.nonce}</dd>
          <dt>Data</dt>
          <dd>{tx.input}</dd>
        </dl>
        {tx.anchored ? (
          <p>
            This transaction anchors the fingerprint <code>{tx.anchored}</code>: a SHA-256 manifest hash
            sealed by the XV trust service.
          </p>
        ) : null}
      </section>
    ),
  });
}
