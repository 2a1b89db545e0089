/**
 * @module http/pages
 * The public pages. `/verify/<id>`: a receipt's (or attestation's) verification for
 * a person, checked on the server; on a receipt's page the original content can be
 * checked against its sealed hash in the browser (client/content.ts), never uploaded.
 * `/verify` (and `/`): drop a proof file and it is checked in the browser itself
 * (client/verify.ts); the file is never uploaded (only the public key set is fetched).
 */
import { type App, cspNonce, type SsoClient } from '@xv/platform/http';
import { type ClientAssets, Page, renderWithShell, viewerFor } from '@xv/platform/pages';
import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { Attestations } from '../attestations/attestations.js';
import type { Issuer, IssuerDirectory } from '../issuers/directory.js';
import type { Receipts } from '../receipts/receipts.js';
import type { ReceiptVerification, ReceiptView } from '../receipts/views.js';
import { verdictWords, verifierRules } from './verdict-words.js';

const RECEIPT = /^rcpt_[0-9a-z]{26}$/;
const ATTESTATION = /^att_[0-9a-z]{26}$/;

export function registerPages(
  app: App,
  o: {
    receipts: Receipts;
    attestations: Attestations;
    directory: IssuerDirectory;
    assets: ClientAssets;
    /** Who is signed in, for the page header (the pages themselves are public). */
    sso: SsoClient;
  },
) {
  const { assets } = o;
  const html = async (c: Context, page: Child, status: 200 | 404 = 200) =>
    c.html(renderWithShell({ viewer: await viewerFor(o.sso, c), nonce: cspNonce(c) }, page), status);
  // The address a person is given first is the checker itself, not a redirect or a 404.
  app.get('/', (c) => html(c, dropPage(assets, cspNonce(c))));
  app.get('/verify', (c) => html(c, dropPage(assets, cspNonce(c))));
  app.get('/verify/:id', async (c) => {
    const id = c.req.param('id');
    if (RECEIPT.test(id)) {
      const row = await o.receipts.find(id).catch(() => null);
      if (row)
        return html(
          c,
          receiptPage(assets, cspNonce(c), o.receipts.view(row), await o.receipts.verifyReceipt(id)),
        );
    } else if (ATTESTATION.test(id)) {
      const found = await o.attestations.find(id).catch(() => null);
      if (found)
        return html(
          c,
          attestationPage(assets, {
            attestationId: found.row.attestation_id,
            issuerId: found.row.org_id,
            issuer: await o.directory.resolve(found.row.org_id).catch(() => null),
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
    return html(c, notFoundPage(assets, id), 404);
  });
}

/** The frame of every trust page: the platform layout, the trust stylesheet, the key set in the footer. */
function page(assets: ClientAssets, title: string, body: Child): Child {
  return (
    <Page
      title={title}
      product="XV Trust"
      home="/verify"
      section="verify"
      assets={assets}
      stylesheets={['trust']}
      nav={<a href="/verify">Verify a proof</a>}
      footer={
        <p>
          Proofs are signed with P-256 and secp256k1; public keys at{' '}
          <a href="/api/keys/jwks">/api/keys/jwks</a>.
        </p>
      }
    >
      <section>{body}</section>
    </Page>
  );
}

function receiptPage(
  assets: ClientAssets,
  nonce: string,
  receipt: ReceiptView,
  result: ReceiptVerification,
): Child {
  const valid = result.valid;
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
        <dt>DID</dt>
        <dd class="mono">{receipt.manifest.claim.issuer.did}</dd>
        <dt>Identity verified</dt>
        <dd>{result.issuer.verified ? 'Yes (KYC verified)' : 'No'}</dd>
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
      {contentCheck(assets, nonce, receipt)}
      <h2>Blockchain anchor</h2>
      {anchorSection(result.anchor)}
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

/** Paste or drop the original content: client/content.ts hashes it here and compares; nothing is sent. */
function contentCheck(assets: ClientAssets, nonce: string, receipt: ReceiptView) {
  return (
    <>
      <h2>Check the original content</h2>
      <p>
        Paste the sealed text, or drop the original file: its SHA-256 is computed in your browser and compared
        with the sealed hash. The content is never sent anywhere.
      </p>
      <div
        id="content-drop"
        class="drop"
        data-output-hash={receipt.outputHash}
        data-input-hash={receipt.inputHash ?? ''}
      >
        <label for="content-text">Paste the content</label>
        <textarea id="content-text" rows={6} spellcheck={false} />
        <p>
          <button type="button" id="content-check">
            Check the pasted text
          </button>
        </p>
        <label for="content-file">or drop or choose the original file (its exact bytes are hashed): </label>
        <input id="content-file" type="file" />
      </div>
      <div id="content-result" role="status" aria-live="polite" />
      <noscript>
        <p>
          Without JavaScript, compute the SHA-256 of the file yourself (for example{' '}
          <code>sha256sum file</code>) and compare it with the output hash above.
        </p>
      </noscript>
      <script nonce={nonce} type="module" src={assets.script('content')} />
    </>
  );
}

/** The anchor: the transaction (linked to its explorer page), and the batch root when it was batched. */
function anchorSection(anchor: ReceiptVerification['anchor']) {
  if (anchor.mode !== 'onchain' || !anchor.txHash)
    return <p>This receipt is not anchored on a blockchain (yet).</p>;
  const batched = (anchor.path?.length ?? 0) > 0;
  return (
    <>
      <p>
        {batched
          ? 'The manifest hash was anchored in a batch: the transaction carries the Merkle root of the batch, and the path below leads from this receipt to that root.'
          : 'The manifest hash itself was written to the chain in the transaction below.'}
      </p>
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
        {anchor.blockNumber != null ? (
          <>
            <dt>Block</dt>
            <dd>{anchor.blockNumber}</dd>
          </>
        ) : null}
        {batched ? (
          <>
            <dt>Batch root</dt>
            <dd class="mono">{anchor.root}</dd>
            <dt>Merkle path</dt>
            <dd>{`${anchor.path?.length} step(s)`}</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}

interface AttestationFacts {
  attestationId: string;
  issuerId: string;
  /** The organization's public record; null when identity does not know it (or does not answer). */
  issuer: Issuer | null;
  schema: string;
  subject: string;
  digest: string;
  uid: string;
  attester: string;
  valid: boolean;
  reason?: string;
}

function attestationPage(assets: ClientAssets, a: AttestationFacts): Child {
  const issuerName = a.issuer?.name;
  return page(
    assets,
    `Attestation ${a.attestationId}`,
    <>
      <h1>Attestation</h1>
      <p role="status" class={`verdict ${a.valid ? 'valid' : 'invalid'}`}>
        {a.valid
          ? `✔ Valid: the EIP-712 signature recovers to a key ${issuerName ?? 'the issuer'} published.`
          : verdictWords(a, issuerName)}
      </p>
      <dl>
        <dt>Issuer</dt>
        <dd>{issuerName ?? 'an organization the identity service does not name'}</dd>
        <dt>DID</dt>
        <dd class="mono">{a.issuer?.did ?? a.issuerId}</dd>
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

function notFoundPage(assets: ClientAssets, id: string): Child {
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

function dropPage(assets: ClientAssets, nonce: string): Child {
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
