/**
 * @module http/pages
 * The public pages. `/verify/<id>`: a receipt's (or attestation's) verification for
 * a person, checked on the server. `/verify`: drop a proof file and it is checked in
 * the browser itself (client/verify.ts); the file is never uploaded (only the public
 * key set is fetched).
 */
import { type App, cspNonce } from '@xv/platform/http';
import { type ClientAssets, renderPage } from '@xv/platform/pages';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { Attestations } from '../attestations/attestations.js';
import type { Receipts } from '../receipts/receipts.js';
import type { ReceiptVerification, ReceiptView } from '../receipts/views.js';
import { verdictWords, verifierRules } from './verdict-words.js';

const RECEIPT = /^rcpt_[0-9a-z]{26}$/;
const ATTESTATION = /^att_[0-9a-z]{26}$/;

export function registerPages(
  app: App,
  o: { receipts: Receipts; attestations: Attestations; assets: ClientAssets },
) {
  const { assets } = o;
  app.get('/', (c) => c.redirect('/verify'));
  app.get('/verify', (c) => c.html(dropPage(assets, cspNonce(c))));
  app.get('/verify/:id', async (c) => {
    const id = c.req.param('id');
    if (RECEIPT.test(id)) {
      const row = await o.receipts.find(id).catch(() => null);
      if (row) return c.html(receiptPage(assets, o.receipts.view(row), await o.receipts.verifyReceipt(id)));
    } else if (ATTESTATION.test(id)) {
      const found = await o.attestations.find(id).catch(() => null);
      if (found)
        return c.html(
          attestationPage(assets, {
            attestationId: found.row.attestation_id,
            issuerId: found.row.org_id,
            schema: found.row.schema,
            subject: found.row.subject,
            digest: found.row.digest,
            uid: found.row.uid,
            attester: found.row.attester,
            valid: found.valid,
            ...(found.reason ? { reason: found.reason } : {}),
          }),
        );
    }
    return c.html(notFoundPage(assets, id), 404);
  });
}

/** The frame of every trust page: the platform layout, the trust stylesheet, the key set in the footer. */
function page(assets: ClientAssets, title: string, body: Child): string {
  return renderPage({
    title,
    product: 'XV Trust',
    home: '/verify',
    assets,
    stylesheets: ['trust'],
    nav: <a href="/verify">Verify a proof</a>,
    footer: (
      <p>
        Proofs are signed with P-256 and secp256k1; public keys at <a href="/api/keys/jwks">/api/keys/jwks</a>
        .
      </p>
    ),
    children: <section>{body}</section>,
  });
}

function receiptPage(assets: ClientAssets, receipt: ReceiptView, result: ReceiptVerification): string {
  const valid = result.valid;
  const anchor = result.anchor;
  return page(
    assets,
    `Receipt ${receipt.receiptId}`,
    <>
      <h1>Seal receipt</h1>
      <p role="status" class={`verdict ${valid ? 'valid' : 'invalid'}`}>
        {verdictWords(result, result.issuer.orgName)}
      </p>
      <h2>Issuer</h2>
      <dl>
        <dt>Organization</dt>
        <dd>{result.issuer.orgName}</dd>
        <dt>Identity verified</dt>
        <dd>{result.issuer.verified ? 'Yes (KYC verified)' : 'No'}</dd>
        <dt>Organization id</dt>
        <dd class="mono">{receipt.issuerId}</dd>
        <dt>Sign-in level</dt>
        <dd>{receipt.authLevel}</dd>
      </dl>
      <h2>Record</h2>
      <dl>
        <dt>Receipt</dt>
        <dd class="mono">{receipt.receiptId}</dd>
        <dt>Model</dt>
        <dd>{receipt.modelId}</dd>
        <dt>Tier</dt>
        <dd>{receipt.tier}</dd>
        <dt>Issued at</dt>
        <dd>
          <time datetime={receipt.issuedAt}>{receipt.issuedAt}</time>
        </dd>
        <dt>Output hash</dt>
        <dd class="mono">{receipt.outputHash}</dd>
        {receipt.inputHash ? (
          <>
            <dt>Input hash</dt>
            <dd class="mono">{receipt.inputHash}</dd>
          </>
        ) : null}
        <dt>Manifest hash</dt>
        <dd class="mono">{result.manifestHash}</dd>
        <dt>Integrity</dt>
        <dd>{result.integrity}</dd>
      </dl>
      <h2>Blockchain anchor</h2>
      {anchor.mode === 'onchain' ? (
        <dl>
          <dt>On chain</dt>
          <dd>
            {anchor.onChain
              ? `Yes, ${anchor.confirmations ?? 0} confirmation(s)`
              : `Not yet (${anchor.problem ?? 'pending'})`}
          </dd>
          <dt>Transaction</dt>
          <dd class="mono">
            {anchor.explorerUrl ? <a href={anchor.explorerUrl}>{anchor.txHash}</a> : anchor.txHash}
          </dd>
        </dl>
      ) : (
        <p>This receipt is not anchored on a blockchain.</p>
      )}
      <p>
        <a href={`/api/receipts/${receipt.receiptId}/proof`} download>
          Download the proof file
        </a>{' '}
        and check it yourself on the <a href="/verify">proof checker</a> or with the steps in the proof format
        documentation.
      </p>
    </>,
  );
}

function attestationPage(
  assets: ClientAssets,
  a: {
    attestationId: string;
    issuerId: string;
    schema: string;
    subject: string;
    digest: string;
    uid: string;
    attester: string;
    valid: boolean;
    reason?: string;
  },
): string {
  return page(
    assets,
    `Attestation ${a.attestationId}`,
    <>
      <h1>Attestation</h1>
      <p role="status" class={`verdict ${a.valid ? 'valid' : 'invalid'}`}>
        {a.valid
          ? '✔ Valid: the EIP-712 signature recovers to a key the issuer published.'
          : verdictWords(a, a.issuerId)}
      </p>
      <dl>
        <dt>Issuer</dt>
        <dd class="mono">{a.issuerId}</dd>
        <dt>Attester address</dt>
        <dd class="mono">{a.attester}</dd>
        <dt>Schema</dt>
        <dd class="mono">{a.schema}</dd>
        <dt>Subject</dt>
        <dd class="mono">{a.subject}</dd>
        <dt>Claim digest</dt>
        <dd class="mono">{a.digest}</dd>
        <dt>EAS UID</dt>
        <dd class="mono">{a.uid}</dd>
      </dl>
      <p>
        The signed EAS off-chain attestation (version 2) is at{' '}
        <a href={`/api/attestations/${a.attestationId}`}>/api/attestations/{a.attestationId}</a>.
      </p>
    </>,
  );
}

function notFoundPage(assets: ClientAssets, id: string): string {
  return page(
    assets,
    'Not found',
    <>
      <h1>Nothing to verify here</h1>
      <p role="status" class="verdict neutral">
        No receipt or attestation has the id <code>{id}</code>.
      </p>
      <p>
        Have a proof file? Check it on the <a href="/verify">proof checker</a>.
      </p>
    </>,
  );
}

/** The rule and words the in-browser verifier needs, as JSON a script block carries (never executed). */
const RULES_JSON = JSON.stringify(verifierRules).replace(/</g, '\\u003c');

function dropPage(assets: ClientAssets, nonce: string): string {
  return page(
    assets,
    'Verify a proof',
    <>
      <h1>Verify a proof file</h1>
      <p>
        The file is checked here, in your browser: it is never uploaded. Only the issuers' public keys are
        fetched from this site.
      </p>
      <div id="drop">
        <p>Drop a proof file here, or</p>
        <label for="proof-file">choose a proof file (.json): </label>
        <input id="proof-file" type="file" accept=".json,application/json" />
      </div>
      <section aria-live="polite" aria-label="Verification result">
        <div id="result" role="status" />
      </section>
      <script nonce={nonce} type="application/json" id="verifier-rules">
        {raw(RULES_JSON)}
      </script>
      <script nonce={nonce} type="module" src={assets.script('verify')} />
    </>,
  );
}
