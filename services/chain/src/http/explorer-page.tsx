/**
 * @module http/explorer-page
 * `GET /tx/{txHash}`: a small block-explorer page for one transaction of the local
 * chain (relayer/explorer.ts reads it). `GET /` is the explorer's home: a form that
 * looks a transaction up (`GET /tx?hash=…` leads to its page), without JavaScript. For an anchor it says first what was
 * anchored (one fingerprint, or the Merkle root of a batch and how many it holds) and
 * when, then the raw fields. The pages speak the reader's language (`messages/`).
 */
import type { App } from '@xv/platform/http';
import { type ClientAssets, LocalTime, Page, renderWithShell, shellOf, useT } from '@xv/platform/pages';
import type { Hex } from 'viem';
import { errors } from '../errors.js';
import { messages } from '../messages/index.js';
import { type TransactionDetails, transactionDetails } from '../relayer/explorer.js';
import type { Relayer } from '../relayer/relayer.js';
import { chainCall } from './anchors.js';

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const PRODUCT = 'XV Chain';

export function registerExplorerPage(app: App, relayer: Relayer, assets: ClientAssets) {
  app.get('/', (c) => c.html(renderWithShell(shellOf(c), <HomePage assets={assets} />)));
  app.get('/tx', (c) => {
    const hash = (c.req.query('hash') ?? '').trim();
    if (!TX_HASH.test(hash))
      return c.html(renderWithShell(shellOf(c), <HomePage assets={assets} invalidHash />), 400);
    return c.redirect(`/tx/${hash.toLowerCase()}`, 302);
  });
  app.get('/tx/:txHash', async (c) => {
    const txHash = c.req.param('txHash');
    if (!TX_HASH.test(txHash)) throw errors.transaction_not_found();
    const tx = await chainCall(() => transactionDetails(relayer.wallet, txHash.toLowerCase() as Hex));
    const batchSize = tx.anchored ? await relayer.batchSize(tx.anchored) : 0;
    return c.html(
      renderWithShell(shellOf(c), <TransactionPage tx={tx} batchSize={batchSize} assets={assets} />),
    );
  });
}

function TransactionPage({
  tx,
  batchSize,
  assets,
}: {
  tx: TransactionDetails;
  batchSize: number;
  assets: ClientAssets;
}) {
  const t = useT(messages);
  return (
    <Page
      title={t('tx.title', { hash: tx.hash.slice(0, 10) })}
      product={PRODUCT}
      home="/"
      assets={assets}
      stylesheets={['explorer']}
      width="wide"
    >
      <section>
        <h1>{t('tx.heading')}</h1>
        {tx.anchored ? <AnchorSummary tx={tx} anchored={tx.anchored} batchSize={batchSize} /> : null}
        <dl class="tx">
          <dt>{t('tx.hash')}</dt>
          <dd>{tx.hash}</dd>
          <dt>{t('tx.chainId')}</dt>
          <dd>{tx.chainId}</dd>
          <dt>{t('tx.status')}</dt>
          <dd class={tx.status === 'success' ? 'ok' : 'warn'} data-status={tx.status}>
            {t(`tx.status.${tx.status}`)}
          </dd>
          <dt>{t('tx.block')}</dt>
          <dd>{tx.blockNumber !== null ? String(tx.blockNumber) : t('tx.notMined')}</dd>
          {tx.minedAt ? (
            <>
              <dt>{t('tx.minedAt')}</dt>
              {/* A raw field: the block's own timestamp, exactly and in UTC (the summary gives it in the reader's zone). */}
              <dd>
                <time datetime={tx.minedAt.toISOString()}>{tx.minedAt.toISOString()}</time>
              </dd>
            </>
          ) : null}
          <dt>{t('tx.confirmations')}</dt>
          <dd>{tx.confirmations}</dd>
          <dt>{t('tx.from')}</dt>
          <dd>
            {tx.from}
            {tx.byRelayer ? ` ${t('tx.byRelayer')}` : ''}
          </dd>
          <dt>{t('tx.to')}</dt>
          <dd>{tx.to ?? t('tx.contractCreation')}</dd>
          <dt>{t('tx.nonce')}</dt>
          <dd>{tx.nonce}</dd>
          <dt>{t('tx.data')}</dt>
          <dd>{tx.input}</dd>
        </dl>
      </section>
    </Page>
  );
}

function HomePage({ assets, invalidHash = false }: { assets: ClientAssets; invalidHash?: boolean }) {
  const t = useT(messages);
  return (
    <Page
      title={t('explorer.title')}
      product={PRODUCT}
      home="/"
      assets={assets}
      stylesheets={['explorer']}
      nav={<a href="/docs">{t('explorer.apiReference')}</a>}
    >
      <section>
        <h1>{t('explorer.heading')}</h1>
        <p>{t('explorer.intro')}</p>
        <form method="get" action="/tx">
          <label for="hash">{t('explorer.hash')}</label>
          <input
            id="hash"
            name="hash"
            required
            pattern="0x[0-9a-fA-F]{64}"
            placeholder="0x…"
            aria-describedby={invalidHash ? 'hash-error' : undefined}
          />
          {invalidHash ? (
            <p id="hash-error" class="error" role="alert">
              {t('explorer.invalidHash')}
            </p>
          ) : null}
          <button type="submit">{t('explorer.lookUp')}</button>
        </form>
      </section>
    </Page>
  );
}

/** What the anchor carries, in words: a batch's root (and how many fingerprints under it), or one fingerprint; and when. */
function AnchorSummary({
  tx,
  anchored,
  batchSize,
}: {
  tx: TransactionDetails;
  anchored: Hex;
  batchSize: number;
}) {
  const t = useT(messages);
  const batch = batchSize > 1;
  return (
    <div class="anchored">
      <p>{batch ? t.plural('anchor.batch', batchSize) : t('anchor.single')}</p>
      <dl class="tx">
        <dt>{t(batch ? 'anchor.root' : 'anchor.fingerprint')}</dt>
        <dd>
          <code>{anchored}</code>
        </dd>
        <dt>{t('anchor.mined')}</dt>
        <dd>
          {tx.minedAt ? (
            <>
              <LocalTime value={tx.minedAt} style="dateTime" />
              {', '}
              {t('anchor.inBlock', { block: String(tx.blockNumber) })}
            </>
          ) : (
            t('anchor.notMined')
          )}
        </dd>
      </dl>
    </div>
  );
}
