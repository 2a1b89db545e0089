/**
 * @module http/receipt-page
 * `/verify/<receipt id>`: a receipt's verification for a person, checked on the
 * server, with its anchor; the original content can be checked against its sealed
 * hash in the browser (client/content.ts), never uploaded.
 */
import { type ClientAssets, LocalTime, richText, useT } from '@xv/platform/pages';
import { messages } from '../messages/index.js';
import { anchorProblemWords, verdictWords } from '../messages/verdict-words.js';
import type { ReceiptVerification, ReceiptView } from '../receipts/views.js';
import { TrustPage } from './frame.js';

export function ReceiptPage(props: {
  assets: ClientAssets;
  nonce: string;
  receipt: ReceiptView;
  result: ReceiptVerification;
}) {
  const { receipt, result } = props;
  const t = useT(messages);
  const integrity = `receipt.integrity.${result.integrity}`;
  return (
    <TrustPage assets={props.assets} title={t('receipt.title', { id: receipt.receiptId })}>
      <h1>{t('receipt.heading')}</h1>
      <p role="status" class={`verdict ${result.valid ? 'valid' : 'invalid'}`}>
        {verdictWords(t, result, result.issuer.orgName)}
      </p>
      <h2>{t('receipt.issuer')}</h2>
      <dl>
        <dt>{t('receipt.organization')}</dt>
        <dd>{result.issuer.orgName}</dd>
        <dt>DID</dt>
        <dd class="mono">{receipt.manifest.claim.issuer.did}</dd>
        <dt>{t('receipt.identityVerified')}</dt>
        <dd>{t(result.issuer.verified ? 'receipt.identityVerified.yes' : 'receipt.identityVerified.no')}</dd>
        <dt>{t('receipt.signInLevel')}</dt>
        <dd>{receipt.authLevel}</dd>
      </dl>
      <h2>{t('receipt.record')}</h2>
      <dl>
        <dt>{t('receipt.receipt')}</dt>
        <dd class="mono">{receipt.receiptId}</dd>
        <dt>{t('receipt.model')}</dt>
        <dd>{receipt.modelId}</dd>
        <dt>{t('receipt.tier')}</dt>
        <dd>{receipt.tier}</dd>
        <dt>{t('receipt.issuedAt')}</dt>
        <dd>
          <LocalTime value={receipt.issuedAt} />
        </dd>
        <dt>{t('receipt.outputHash')}</dt>
        <dd class="mono">{receipt.outputHash}</dd>
        {receipt.inputHash ? (
          <>
            <dt>{t('receipt.inputHash')}</dt>
            <dd class="mono">{receipt.inputHash}</dd>
          </>
        ) : null}
        <dt>{t('receipt.manifestHash')}</dt>
        <dd class="mono">{result.manifestHash}</dd>
        <dt>{t('receipt.integrity')}</dt>
        <dd data-integrity={result.integrity}>{t.has(integrity) ? t(integrity) : result.integrity}</dd>
      </dl>
      <ContentCheck assets={props.assets} nonce={props.nonce} receipt={receipt} />
      <h2>{t('receipt.anchor')}</h2>
      <AnchorSection anchor={result.anchor} />
      <p>
        {richText(t('receipt.selfCheck'), {
          download: (
            <a href={`/api/receipts/${receipt.receiptId}/proof`} download>
              {t('receipt.download')}
            </a>
          ),
          checker: <a href="/verify">{t('receipt.checker')}</a>,
        })}
      </p>
    </TrustPage>
  );
}

/** Paste or drop the original content: client/content.ts hashes it here and compares; nothing is sent. */
function ContentCheck(props: { assets: ClientAssets; nonce: string; receipt: ReceiptView }) {
  const t = useT(messages);
  return (
    <>
      <h2>{t('content.heading')}</h2>
      <p>{t('content.intro')}</p>
      <div
        id="content-drop"
        class="drop"
        data-output-hash={props.receipt.outputHash}
        data-input-hash={props.receipt.inputHash ?? ''}
      >
        <label for="content-text">{t('content.paste')}</label>
        <textarea id="content-text" rows={6} spellcheck={false} />
        <p>
          <button type="button" id="content-check">
            {t('content.checkPasted')}
          </button>
        </p>
        <label for="content-file">{t('content.file')} </label>
        <input id="content-file" type="file" />
      </div>
      <div id="content-result" role="status" aria-live="polite" />
      <noscript>
        <p>{richText(t('content.noscript'), { command: <code>sha256sum file</code> })}</p>
      </noscript>
      <script nonce={props.nonce} type="module" src={props.assets.script('content')} />
    </>
  );
}

/** The anchor: the transaction (linked to its explorer page), and the batch root when it was batched. */
function AnchorSection({ anchor }: { anchor: ReceiptVerification['anchor'] }) {
  const t = useT(messages);
  if (anchor.mode !== 'onchain' || !anchor.txHash) return <p>{t('anchor.none')}</p>;
  const batched = (anchor.path?.length ?? 0) > 0;
  return (
    <>
      <p>{t(batched ? 'anchor.batched' : 'anchor.direct')}</p>
      <dl>
        <dt>{t('anchor.onChain')}</dt>
        <dd>
          {anchor.onChain
            ? t.plural('anchor.onChain.yes', anchor.confirmations ?? 0)
            : t('anchor.onChain.no', { problem: anchorProblemWords(t, anchor.problem ?? 'pending') })}
        </dd>
        <dt>{t('anchor.transaction')}</dt>
        <dd class="mono">
          {anchor.explorerUrl ? <a href={anchor.explorerUrl}>{anchor.txHash}</a> : anchor.txHash}
        </dd>
        {anchor.blockNumber != null ? (
          <>
            <dt>{t('anchor.block')}</dt>
            <dd>{anchor.blockNumber}</dd>
          </>
        ) : null}
        {batched ? (
          <>
            <dt>{t('anchor.root')}</dt>
            <dd class="mono">{anchor.root}</dd>
            <dt>{t('anchor.path')}</dt>
            <dd>{t.plural('anchor.steps', anchor.path?.length ?? 0)}</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}
