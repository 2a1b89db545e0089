/**
 * @module client/verify
 * The `/verify` page: a dropped (or chosen) proof file is checked here, in the
 * browser; only the public key set is fetched, and whether the chain holds an
 * anchor's root is asked with the transaction and root hashes only. The rule's
 * constants are the server's, read from the page's JSON block `#verifier-rules`;
 * the words are the catalogue's, in the page's language.
 */
import { localeOfTag, translator } from '@xv/platform/i18n';
import { messages } from '../messages/index.js';
import { anchorProblemWords } from '../messages/verdict-words.js';
import type { AnchorVerdict } from './lib/anchor.js';
import { isObject } from './lib/encoding.js';
import { onFile } from './lib/file-drop.js';
import { createVerifier, type VerifierRules } from './lib/verifier.js';

const locale = localeOfTag(document.documentElement.lang) ?? 'en';
const t = translator(messages, locale);

function readRules(): VerifierRules {
  const value: unknown = JSON.parse(document.getElementById('verifier-rules')?.textContent ?? 'null');
  if (!isObject(value) || typeof value.demoIssuerId !== 'string' || typeof value.keyClockSkewMs !== 'number')
    throw new Error('The page carries no verifier rules.');
  return { demoIssuerId: value.demoIssuerId, keyClockSkewMs: value.keyClockSkewMs };
}

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`The page has no #${id}.`);
  return found;
}

const verifier = createVerifier(readRules(), locale);
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
    t('check.anchorPath'),
    anchor.inclusion
      ? t('check.anchorPath.leads', { root: String(anchor.root) })
      : t('check.anchorPath.broken', { problem: anchorProblemWords(t, anchor.problem ?? 'malformed') }),
  );
  if (!anchor.inclusion) return;
  const query = new URLSearchParams({ txHash: String(anchor.txHash), root: String(anchor.root) });
  const chain: unknown = await (await fetch(`/api/anchor/check?${query}`, { credentials: 'omit' })).json();
  const answer = isObject(chain) ? chain : {};
  row(
    dl,
    t('check.anchored'),
    answer.onChain
      ? t.plural('check.anchored.yes', Number(answer.confirmations) || 0, { tx: String(anchor.txHash) })
      : t('check.anchored.no', { problem: anchorProblemWords(t, String(answer.problem || answer.error)) }),
  );
}

async function check(file: File) {
  out.textContent = t('check.checking', { name: file.name });
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
      const signature = (valid: boolean) => t(valid ? 'check.signature.valid' : 'check.signature.invalid');
      row(dl, t('check.manifestHash'), result.manifestHash);
      row(dl, t('check.issuerNamed'), String(named || result.issuer.orgId || '?'));
      row(dl, t('check.keyPublished'), t(result.issuerVerified ? 'check.yes' : 'check.no'));
      row(dl, t('check.p256'), signature(result.checks.p256Sig));
      row(dl, t('check.secp256k1'), signature(result.checks.ethSig));
      out.append(dl);
      if (result.anchor) await anchorRows(dl, result.anchor);
    }
  } catch (error) {
    out.className = 'verdict invalid';
    out.textContent = t('check.failed', { error: error instanceof Error ? error.message : String(error) });
  }
}

onFile(input, drop, (file) => void check(file));
