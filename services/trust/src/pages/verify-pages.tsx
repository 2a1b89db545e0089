/**
 * @module pages/verify-pages
 * `/verify/<id>`: a receipt's (or attestation's) verification for a person, checked
 * on the server. `/verify`: drop a proof file and it is checked in the browser
 * itself; the file is never uploaded (only the public key set is fetched).
 */
import { raw } from 'hono/html';
import type { ReceiptVerification, ReceiptView } from '../seal/receipts.js';
import { VERIFIER_CORE } from './browser-verifier.js';
import { page } from './layout.js';
import { verdictWords } from './verdict-words.js';

export function receiptPage(receipt: ReceiptView, result: ReceiptVerification): string {
  const valid = result.valid;
  const anchor = result.anchor;
  return page(
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

export function attestationPage(a: {
  attestationId: string;
  issuerId: string;
  schema: string;
  subject: string;
  digest: string;
  uid: string;
  attester: string;
  valid: boolean;
  reason?: string;
}): string {
  return page(
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

export function notFoundPage(id: string): string {
  return page(
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

const DROP_UI = `
(() => {
  const drop = document.getElementById('drop');
  const input = document.getElementById('proof-file');
  const out = document.getElementById('result');
  let jwks;
  const keys = async () => (jwks ??= await (await fetch('/api/keys/jwks', { credentials: 'omit' })).json());
  function row(dl, term, value) {
    const dt = document.createElement('dt'); dt.textContent = term;
    const dd = document.createElement('dd'); dd.textContent = value; dd.className = 'mono';
    dl.append(dt, dd);
  }
  /** The path is checked here; whether the chain holds the root is asked with the two hashes only. */
  async function anchorRows(dl, anchor) {
    row(dl, 'Anchor path', anchor.inclusion
      ? 'leads to the root ' + anchor.root
      : 'does not lead to the root it names (' + anchor.problem + ')');
    if (!anchor.inclusion) return;
    const query = new URLSearchParams({ txHash: anchor.txHash, root: anchor.root });
    const chain = await (await fetch('/api/anchor/check?' + query, { credentials: 'omit' })).json();
    row(dl, 'Anchored on chain', chain.onChain
      ? 'yes, ' + chain.confirmations + ' confirmation(s), transaction ' + anchor.txHash
      : 'no (' + (chain.problem || chain.error) + ')');
  }
  async function check(file) {
    out.textContent = 'Checking ' + file.name + '…';
    out.className = 'verdict neutral';
    try {
      const result = await XV.verifyProof(await file.text(), await keys());
      out.replaceChildren();
      const verdict = document.createElement('p');
      verdict.dataset.status = result.status;
      verdict.textContent = XV.explain(result);
      out.className = 'verdict ' + (result.status === 'valid' ? 'valid' : 'invalid');
      out.append(verdict);
      if (result.manifestHash) {
        const dl = document.createElement('dl');
        row(dl, 'Manifest hash', result.manifestHash);
        row(dl, 'Issuer named in the proof', (result.claim && result.claim.issuer && result.claim.issuer.name) || result.issuer.orgId || '?');
        row(dl, 'Key published by that issuer', result.issuerVerified ? 'yes' : 'no');
        row(dl, 'P-256 signature', result.checks.p256Sig ? 'valid' : 'invalid');
        row(dl, 'secp256k1 signature', result.checks.ethSig ? 'valid' : 'invalid');
        out.append(dl);
        if (result.anchor) await anchorRows(dl, result.anchor);
      }
    } catch (error) {
      out.className = 'verdict invalid';
      out.textContent = '✘ The proof could not be checked: ' + error.message;
    }
  }
  input.addEventListener('change', () => input.files[0] && check(input.files[0]));
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const file = e.dataTransfer.files[0];
    if (file) check(file);
  });
})();
`;

export function dropPage(nonce: string): string {
  return page(
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
      <script nonce={nonce}>{raw(VERIFIER_CORE)}</script>
      <script nonce={nonce}>{raw(DROP_UI)}</script>
    </>,
  );
}
