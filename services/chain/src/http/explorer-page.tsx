/**
 * @module http/explorer-page
 * `GET /tx/{txHash}`: a small block-explorer page for one transaction of the local
 * chain (relayer/explorer.ts reads it). `GET /` is the explorer's home: a form that
 * looks a transaction up (`GET /tx?hash=…` leads to its page), without JavaScript. For an anchor it says first what was
 * anchored (one fingerprint, or the Merkle root of a batch and how many it holds) and
 * when, then the raw fields.
 */
import { type App, cspNonce } from '@xv/platform/http';
import { type ClientAssets, renderPage } from '@xv/platform/pages';
import type { Hex } from 'viem';
import { errors } from '../errors.js';
import { type TransactionDetails, transactionDetails } from '../relayer/explorer.js';
import type { Relayer } from '../relayer/relayer.js';
import { chainCall } from './anchors.js';

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export function registerExplorerPage(app: App, relayer: Relayer, assets: ClientAssets) {
  app.get('/', (c) => c.html(homePage(assets, cspNonce(c))));
  app.get('/tx', (c) => {
    const hash = (c.req.query('hash') ?? '').trim();
    if (!TX_HASH.test(hash))
      return c.html(homePage(assets, cspNonce(c), 'Enter a transaction hash: 0x and 64 hex digits.'), 400);
    return c.redirect(`/tx/${hash.toLowerCase()}`, 302);
  });
  app.get('/tx/:txHash', async (c) => {
    const txHash = c.req.param('txHash');
    if (!TX_HASH.test(txHash)) throw errors.transaction_not_found();
    const tx = await chainCall(() => transactionDetails(relayer.wallet, txHash.toLowerCase() as Hex));
    const batchSize = tx.anchored ? await relayer.batchSize(tx.anchored) : 0;
    return c.html(explorerPage(tx, batchSize, assets, cspNonce(c)));
  });
}

function explorerPage(
  tx: TransactionDetails,
  batchSize: number,
  assets: ClientAssets,
  nonce: string,
): string {
  return renderPage({
    nonce,
    title: `Transaction ${tx.hash.slice(0, 10)}…`,
    product: 'XV Chain',
    home: '/',
    assets,
    stylesheets: ['explorer'],
    width: 'wide',
    children: (
      <section>
        <h1>Transaction</h1>
        {tx.anchored ? anchorSummary(tx, tx.anchored, batchSize) : null}
        <dl class="tx">
          <dt>Hash</dt>
          <dd>{tx.hash}</dd>
          <dt>Chain id</dt>
          <dd>{tx.chainId}</dd>
          <dt>Status</dt>
          <dd class={tx.status === 'success' ? 'ok' : 'warn'}>{tx.status}</dd>
          <dt>Block</dt>
          <dd>{tx.blockNumber !== null ? String(tx.blockNumber) : 'not yet mined'}</dd>
          {tx.minedAt ? (
            <>
              <dt>Mined at</dt>
              <dd>
                <time datetime={tx.minedAt.toISOString()}>{tx.minedAt.toISOString()}</time>
              </dd>
            </>
          ) : null}
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
      </section>
    ),
  });
}

function homePage(assets: ClientAssets, nonce: string, error?: string): string {
  return renderPage({
    nonce,
    title: 'Explorer',
    product: 'XV Chain',
    home: '/',
    assets,
    stylesheets: ['explorer'],
    nav: <a href="/docs">API reference</a>,
    children: (
      <section>
        <h1>Chain explorer</h1>
        <p>
          The XV relayer anchors the fingerprints of sealed receipts on this chain. Look up one of its
          transactions by hash; a receipt's verification page links to its own.
        </p>
        <form method="get" action="/tx">
          <label for="hash">Transaction hash</label>
          <input
            id="hash"
            name="hash"
            required
            pattern="0x[0-9a-fA-F]{64}"
            placeholder="0x…"
            aria-describedby={error ? 'hash-error' : undefined}
          />
          {error ? (
            <p id="hash-error" class="error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit">Look up</button>
        </form>
      </section>
    ),
  });
}

/** What the anchor carries, in words: a batch's root (and how many fingerprints under it), or one fingerprint. */
function anchorSummary(tx: TransactionDetails, anchored: Hex, batchSize: number) {
  const when = tx.minedAt ? (
    <>
      {' '}
      It was mined at <time datetime={tx.minedAt.toISOString()}>{tx.minedAt.toISOString()}</time>, in block{' '}
      {String(tx.blockNumber)}.
    </>
  ) : (
    ' It is not mined yet.'
  );
  return (
    <div class="anchored">
      {batchSize > 1 ? (
        <p>
          This transaction anchors <code>{anchored}</code>, the Merkle root of a batch of {batchSize}{' '}
          fingerprints: SHA-256 manifest hashes of receipts sealed by the XV trust service. Each receipt's
          proof carries the path from its own hash up to this root.{when}
        </p>
      ) : (
        <p>
          This transaction anchors one fingerprint, <code>{anchored}</code>: a SHA-256 manifest hash sealed by
          the XV trust service.{when}
        </p>
      )}
    </div>
  );
}
