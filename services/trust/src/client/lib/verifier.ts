/**
 * @module client/lib/verifier
 * The proof check that runs in a visitor's browser, so a proof file never leaves
 * their machine: RFC 8785 canonicalisation, SHA-256 and P-256 through WebCrypto,
 * Keccak-256 and secp256k1 recovery for the EIP-191 signature.
 *
 * `verifyProof(proofText, jwks)` follows the server's rule (`seal/verify.ts`): both
 * signatures must check against the key set entry the claim names, published under
 * the organization the claim names, and the claim's date must fall inside that key's
 * window. `explain(result)` says the verdict in the words of the server's pages, in
 * the reader's language (messages/verdict-words.ts). The rule's constants come from the server
 * (`VerifierRules`, a JSON block on the page), so both sides apply the same rule.
 */
import { type Locale, translator } from '@xv/platform/i18n';
import { messages } from '../../messages/index.js';
import { verdictWords } from '../../messages/verdict-words.js';
import { type AnchorVerdict, checkAnchor } from './anchor.js';
import { canonicalize, hex, isObject, type JsonObject } from './encoding.js';
import { ethValid, keccak256, p256Valid, recoverAddress } from './signatures.js';

export interface VerifierRules {
  /** The demo issuer's organization id. */
  demoIssuerId: string;
  /** How far a claimed date may precede its key's creation. */
  keyClockSkewMs: number;
}

export type FailureReason =
  | 'tampered'
  | 'bad_signature'
  | 'unknown_issuer'
  | 'unknown_issuer_key'
  | 'demo_issuer'
  | 'key_retired'
  | 'key_not_yet_valid';

export interface Malformed {
  status: 'malformed';
  message: string;
}

export interface Checked {
  status: 'valid' | 'invalid';
  valid: boolean;
  signatureValid: boolean;
  issuerVerified: boolean;
  integrity: 'intact' | 'tampered' | 'unverified';
  manifestHash: string;
  issuer: { orgId: unknown; keyId: unknown };
  claim: JsonObject;
  checks: { manifestHash: boolean | null; p256Sig: boolean; ethSig: boolean };
  reason?: FailureReason;
  anchor?: AnchorVerdict;
}

export type ProofVerdict = Malformed | Checked;

/** One entry of the published key set (`GET /api/keys/jwks`), as far as the check reads it. */
interface KeyEntry {
  kid: unknown;
  keyId: unknown;
  jwk: { x: unknown; y: unknown };
  ethAddress: unknown;
  status: unknown;
  createdAt: unknown;
  retiredAt: unknown;
}

function keyEntries(jwks: unknown): KeyEntry[] {
  const keys = isObject(jwks) && Array.isArray(jwks.keys) ? jwks.keys : [];
  return keys.filter(isObject).map((key) => ({
    kid: key.kid,
    keyId: key.keyId,
    jwk: isObject(key.jwk) ? { x: key.jwk.x, y: key.jwk.y } : { x: undefined, y: undefined },
    ethAddress: key.ethAddress,
    status: key.status,
    createdAt: key.createdAt,
    retiredAt: key.retiredAt,
  }));
}

const MANIFEST_FIELDS = ['claim', 'manifestHash', 'signatures', 'anchor'];
const SIGNATURE_FIELDS = ['p256Sig', 'ethSig'];

/** A verifier applying `rules`, explaining its verdicts in `locale`. */
export function createVerifier(rules: VerifierRules, locale: Locale = 'en') {
  const t = translator(messages, locale);
  async function verifyProof(proofText: string, jwks: unknown): Promise<ProofVerdict> {
    let proof: unknown;
    try {
      proof = JSON.parse(proofText);
    } catch {
      return { status: 'malformed', message: t('verdict.malformed.notJson') };
    }
    if (!isObject(proof) || !isObject(proof.claim) || !isObject(proof.signatures))
      return { status: 'malformed', message: t('verdict.malformed.notProof') };
    const extra = Object.keys(proof)
      .filter((key) => !MANIFEST_FIELDS.includes(key))
      .concat(Object.keys(proof.signatures).filter((key) => !SIGNATURE_FIELDS.includes(key)));
    if (extra.length > 0)
      return {
        status: 'malformed',
        message: t('verdict.malformed.extraFields', { fields: extra.join(', ') }),
      };
    const { claim, signatures } = proof;
    const issuer = isObject(claim.issuer) ? claim.issuer : {};
    const data = new TextEncoder().encode(canonicalize(claim));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
    const manifestHash = `sha256-${hex(digest)}`;
    const hashMatches = proof.manifestHash === undefined ? null : proof.manifestHash === manifestHash;
    const orgKeys = keyEntries(jwks).filter((key) => key.kid === issuer.orgId);
    const entry = orgKeys.find((key) => key.keyId === issuer.keyId);
    const anchor = proof.anchor === undefined ? undefined : checkAnchor(proof.anchor, `0x${hex(digest)}`);
    const verdict = (
      integrity: Checked['integrity'],
      signatureValid: boolean,
      reason: FailureReason | undefined,
      checks: Checked['checks'],
    ): Checked => ({
      manifestHash,
      issuer: { orgId: issuer.orgId ?? null, keyId: issuer.keyId ?? null },
      claim,
      ...(anchor ? { anchor } : {}),
      status: reason ? 'invalid' : 'valid',
      valid: !reason,
      signatureValid,
      issuerVerified: !reason,
      integrity,
      checks,
      ...(reason ? { reason } : {}),
    });
    if (!entry) {
      const reason =
        issuer.orgId === rules.demoIssuerId
          ? 'demo_issuer'
          : orgKeys.length > 0
            ? 'unknown_issuer_key'
            : 'unknown_issuer';
      return verdict(hashMatches === false ? 'tampered' : 'unverified', false, reason, {
        manifestHash: hashMatches,
        p256Sig: false,
        ethSig: false,
      });
    }
    // Both signatures against the same published entry.
    const checks = {
      manifestHash: hashMatches,
      p256Sig: await p256Valid(entry.jwk, data, signatures.p256Sig),
      ethSig: ethValid(entry.ethAddress, digest, signatures.ethSig),
    };
    if (hashMatches === false || (!checks.p256Sig && !checks.ethSig))
      return verdict('tampered', false, 'tampered', checks);
    if (!checks.p256Sig || !checks.ethSig) return verdict('intact', false, 'bad_signature', checks);
    if (String(issuer.ethAddress).toLowerCase() !== String(entry.ethAddress).toLowerCase())
      return verdict('intact', true, 'unknown_issuer_key', checks);
    const at = Date.parse(String(claim.issuedAt));
    if (Number.isNaN(at) || at < Date.parse(String(entry.createdAt)) - rules.keyClockSkewMs)
      return verdict('intact', true, 'key_not_yet_valid', checks);
    if (
      (entry.status === 'retired' && !entry.retiredAt) ||
      (entry.retiredAt && at > Date.parse(String(entry.retiredAt)))
    )
      return verdict('intact', true, 'key_retired', checks);
    return verdict('intact', true, undefined, checks);
  }

  /** The verdict in plain words, naming the organization the proof claims to come from. */
  function explain(result: ProofVerdict): string {
    const claimed = result.status !== 'malformed' && isObject(result.claim.issuer) ? result.claim.issuer : {};
    const issuer = String(claimed.name || claimed.orgId || '') || undefined;
    return verdictWords(t, result, issuer);
  }

  return { verifyProof, explain, keccak256, recoverAddress, canonicalize };
}

export type Verifier = ReturnType<typeof createVerifier>;
