/**
 * @module client/verify
 * The `/verify` page: a dropped (or chosen) proof file is checked here, in the
 * browser; only the public key set is fetched, and whether the chain holds an
 * anchor's root is asked with the transaction and root hashes only. The rule's
 * constants and words are the server's, read from the page's JSON block
 * `#verifier-rules`.
 */
import type { AnchorVerdict } from './lib/anchor.js';
import { isObject } from './lib/encoding.js';
import { onFile } from './lib/file-drop.js';
import { createVerifier, type VerifierRules } from './lib/verifier.js';

function readRules(): VerifierRules {
  const value: unknown = JSON.parse(document.getElementById('verifier-rules')?.textContent ?? 'null');
  if (
    !isObject(value) ||
    typeof value.demoIssuerId !== 'string' ||
    typeof value.keyClockSkewMs !== 'number' ||
    typeof value.validWords !== 'string' ||
    !isObject(value.reasonWords)
  )
    throw new Error('The page carries no verifier rules.');
  const reasonWords: Record<string, string> = {};
  for (const [reason, words] of Object.entries(value.reasonWords))
    if (typeof words === 'string') reasonWords[reason] = words;
  return {
    demoIssuerId: value.demoIssuerId,
    keyClockSkewMs: value.keyClockSkewMs,
    validWords: value.validWords,
    reasonWords,
  };
}

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`The page has no #${id}.`);
  return found;
}

const verifier = createVerifier(readRules());
const drop = element('drop', HTMLElement);
const input = element('proof-file', HTMLInputElement);
const out = element('result', HTMLElement);

let jwks: Promise<unknown> | undefined;
const keys = () => {
  jwks ??= fetch('/api/keys/jwks', { credentials: 'omit' }).then((response) => response.json());
  return jwks;
};

function row(dl: HTMLDListElement, term: string, value: string) {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = value;
  dd.className = 'mono';
  dl.append(dt, dd);
}

/** The path is checked here; whether the chain holds the root is asked with the two hashes only. */
async function anchorRows(dl: HTMLDListElement, anchor: AnchorVerdict) {
  row(
    dl,
    'Anchor path',
    anchor.inclusion
      ? `leads to the root ${String(anchor.root)}`
      : `does not lead to the root it names (${anchor.problem ?? 'malformed'})`,
  );
  if (!anchor.inclusion) return;
  const query = new URLSearchParams({ txHash: String(anchor.txHash), root: String(anchor.root) });
  const chain: unknown = await (await fetch(`/api/anchor/check?${query}`, { credentials: 'omit' })).json();
  const answer = isObject(chain) ? chain : {};
  row(
    dl,
    'Anchored on chain',
    answer.onChain
      ? `yes, ${String(answer.confirmations)} confirmation(s), transaction ${String(anchor.txHash)}`
      : `no (${String(answer.problem || answer.error)})`,
  );
}

async function check(file: File) {
  out.textContent = `Checking ${file.name}…`;
  out.className = 'verdict neutral';
  try {
    const result = await verifier.verifyProof(await file.text(), await keys());
    out.replaceChildren();
    const verdict = document.createElement('p');
    verdict.dataset.status = result.status;
    verdict.textContent = verifier.explain(result);
    out.className = `verdict ${result.status === 'valid' ? 'valid' : 'invalid'}`;
    out.append(verdict);
    if (result.status !== 'malformed') {
      const named = isObject(result.claim.issuer) ? result.claim.issuer.name : undefined;
      const dl = document.createElement('dl');
      row(dl, 'Manifest hash', result.manifestHash);
      row(dl, 'Issuer named in the proof', String(named || result.issuer.orgId || '?'));
      row(dl, 'Key published by that issuer', result.issuerVerified ? 'yes' : 'no');
      row(dl, 'P-256 signature', result.checks.p256Sig ? 'valid' : 'invalid');
      row(dl, 'secp256k1 signature', result.checks.ethSig ? 'valid' : 'invalid');
      out.append(dl);
      if (result.anchor) await anchorRows(dl, result.anchor);
    }
  } catch (error) {
    out.className = 'verdict invalid';
    out.textContent = `✘ The proof could not be checked: ${error instanceof Error ? error.message : String(error)}`;
  }
}

onFile(input, drop, (file) => void check(file));
