/**
 * @module seal/receipts
 * Sealing a record into a receipt, anchoring its manifest hash through the relayer,
 * and verifying a receipt (signatures, issuer, chain) or a bare proof.
 */
import { AppError, newId, verifyInclusion } from '@xv/platform';
import type { AnchorBudget } from '../anchoring/budget.js';
import type { ChainReader } from '../anchoring/chain-check.js';
import { type AnchorCheck, checkProofAnchor, parseProofAnchor } from '../anchoring/inclusion.js';
import type { RelayerAnchor, RelayerClient } from '../anchoring/relayer-client.js';
import { contentBytes, hashContent, sha256, taggedHash } from '../crypto/canonical.js';
import type { ReceiptsTable, TrustDb } from '../db.js';
import { errors } from '../errors.js';
import type { Issuer, IssuerDirectory } from '../issuers/directory.js';
import type { PublishedKeys } from '../issuers/published-keys.js';
import type { Keyring, P256PublicJwk } from '../keys/keyring.js';
import { CLAIM_TYPE, type Claim, type ClaimSigner, type Manifest, signManifest } from './manifest.js';
import { needsStepUp } from './policy.js';
import { invalidated, type ManifestVerification, parseProof, verifyManifest } from './verify.js';

export interface SealRequest {
  issuer: Issuer;
  authLevel: string;
  modelId: string;
  output: unknown;
  input?: unknown;
  storeInput?: boolean;
  tier: number;
}

/**
 * A receipt's anchor (proof format, anchor version 2): `ref` is the receipt's
 * fingerprint, `root` what the transaction `txHash` carries, and `path` the Merkle path
 * from `ref` up to `root` (empty, with `root` = `ref`, when anchored alone). `notice`
 * says why an `anchorNow` was batched instead of immediate.
 */
export interface AnchorResult {
  mode: 'onchain';
  version: 2;
  txHash: string;
  ref: string;
  explorerUrl: string;
  root: string;
  path: string[];
  notice?: 'anchor_budget_exhausted';
}

/** A receipt's anchor; `error` says why an `anchorNow` did not happen. */
export type AnchorView = AnchorResult | { mode: 'none'; error?: string };

/** Immediate: a transaction of its own, from the organization's budget; batch: the next batch. */
export type AnchorMode = 'immediate' | 'batch';

export interface ReceiptView {
  receiptId: string;
  outputHash: string;
  inputHash?: string;
  manifestHash: string;
  issuerId: string;
  issuerName: string;
  identityVerified: boolean;
  authLevel: string;
  tier: number;
  modelId: string;
  issuedAt: string;
  keyId: string;
  p256Sig: string;
  ethSig: string;
  anchor: AnchorView;
  manifest: Manifest;
  verifyUrl: string;
  proofUrl: string;
}

export interface ReceiptVerification extends ManifestVerification {
  receiptId: string;
  issuer: ManifestVerification['issuer'] & { orgName: string; verified: boolean };
  anchor: {
    onChain: boolean;
    txHash: string | null;
    mode: 'onchain' | 'none';
    explorerUrl?: string;
    root?: string;
    path?: string[];
    blockNumber?: number | null;
    confirmations?: number;
    problem?: string;
  };
}

export interface ReceiptsOptions {
  db: TrustDb;
  keyring: Keyring;
  /** The keys a proof may be signed with: those its issuer published. */
  publishedKeys: PublishedKeys;
  /** Where the signatures are made (a SigningPool in the service). */
  signer: ClaimSigner;
  directory: IssuerDirectory;
  relayer: RelayerClient;
  budget: AnchorBudget;
  chain: ChainReader;
  trustUrl: string;
  inputLimitBytes: number;
}

/** The 0x form of a manifest hash: the 32 bytes anchored on chain. */
export const anchorRef = (manifestHash: string) => `0x${manifestHash.slice('sha256-'.length)}`;

export class Receipts {
  constructor(private readonly o: ReceiptsOptions) {}

  async seal(request: SealRequest): Promise<ReceiptView> {
    const { issuer } = request;
    if (needsStepUp(request.tier, request.authLevel)) throw errors.stepup_required();
    const outputHash = hashContent(request.output);
    let inputHash: string | undefined;
    let inputJson: string | null = null;
    if (request.input !== undefined) {
      const inputBytes = contentBytes(request.input);
      inputHash = taggedHash(sha256(inputBytes));
      if (request.storeInput) {
        if (inputBytes.length > this.o.inputLimitBytes)
          throw errors.input_too_large(`A stored input may be at most ${this.o.inputLimitBytes} bytes.`);
        inputJson = JSON.stringify(request.input);
      }
    }
    const key = await this.o.keyring.signingKey(issuer);
    const receiptId = newId('rcpt');
    const issuedAt = new Date();
    const claim: Claim = {
      type: CLAIM_TYPE,
      receiptId,
      modelId: request.modelId,
      outputHash,
      ...(inputHash ? { inputHash } : {}),
      tier: request.tier,
      issuer: {
        orgId: issuer.orgId,
        name: issuer.name,
        did: issuer.did,
        identityVerified: issuer.verified,
        keyId: key.keyId,
        ethAddress: key.ethAddress,
      },
      authLevel: request.authLevel,
      issuedAt: issuedAt.toISOString(),
    };
    const manifest = await signManifest(claim, key, this.o.signer);
    const row: ReceiptsTable = {
      receipt_id: receiptId,
      org_id: issuer.orgId,
      key_id: key.keyId,
      issuer_name: issuer.name,
      identity_verified: issuer.verified ? 1 : 0,
      auth_level: request.authLevel,
      model_id: request.modelId,
      tier: request.tier,
      output_hash: outputHash,
      input_hash: inputHash ?? null,
      input_json: inputJson,
      manifest_hash: manifest.manifestHash,
      manifest: JSON.stringify(manifest),
      created_at: issuedAt.getTime(),
      anchor_ref: null,
      anchor_tx_hash: null,
      anchor_explorer_url: null,
      anchor_from: null,
      anchor_chain_id: null,
      anchored_at: null,
      anchor_root: null,
      anchor_path: null,
    };
    await this.o.db.insertInto('receipts').values(row).execute();
    return this.view(row, manifest);
  }

  async find(receiptId: string): Promise<ReceiptsTable> {
    const row = await this.o.db
      .selectFrom('receipts')
      .selectAll()
      .where('receipt_id', '=', receiptId)
      .executeTakeFirst();
    if (!row) throw errors.receipt_not_found();
    return row;
  }

  view(row: ReceiptsTable, manifest = JSON.parse(row.manifest) as Manifest): ReceiptView {
    return {
      receiptId: row.receipt_id,
      outputHash: row.output_hash,
      ...(row.input_hash ? { inputHash: row.input_hash } : {}),
      manifestHash: row.manifest_hash,
      issuerId: row.org_id,
      issuerName: row.issuer_name,
      identityVerified: row.identity_verified === 1,
      authLevel: row.auth_level,
      tier: row.tier,
      modelId: row.model_id,
      issuedAt: manifest.claim.issuedAt,
      keyId: row.key_id,
      p256Sig: manifest.signatures.p256Sig,
      ethSig: manifest.signatures.ethSig,
      anchor: anchorOf(row),
      manifest,
      verifyUrl: `${this.o.trustUrl}/verify/${row.receipt_id}`,
      proofUrl: `${this.o.trustUrl}/api/receipts/${row.receipt_id}/proof`,
    };
  }

  /**
   * Anchors the receipt's manifest hash through the relayer: in the next batch, or
   * (`immediate`) in a transaction of its own paid from the organization's daily budget.
   * Idempotent: an anchored receipt gets its anchor back without spending anything, and
   * the relayer keeps one anchor per hash, so asking again while it is queued (or after a
   * crash on either side) returns the same transaction.
   */
  async anchor(receiptId: string, mode: AnchorMode = 'batch'): Promise<AnchorResult> {
    const row = await this.find(receiptId);
    const known = anchorOf(row);
    if (known.mode === 'onchain') return known;
    const ref = anchorRef(row.manifest_hash);
    let anchored: RelayerAnchor;
    if (mode === 'immediate') {
      await this.o.budget.spend(row.org_id);
      try {
        anchored = await this.o.relayer.anchor(ref);
      } catch (error) {
        await this.o.budget.refund(row.org_id);
        throw error;
      }
      // It was already queued by someone else: it went out in their batch, at no cost to this budget.
      if (anchored.path.length > 0) await this.o.budget.refund(row.org_id);
    } else {
      anchored = await this.o.relayer.batch(ref);
    }
    await this.remember(row, anchored);
    return anchorResult(ref, anchored);
  }

  /**
   * `anchorNow` on a seal: immediate while the organization's budget lasts, then the
   * next batch with a `notice`; the seal stands even when the relayer cannot anchor.
   */
  async anchorNow(receiptId: string, mode: AnchorMode): Promise<AnchorView> {
    try {
      return await this.anchor(receiptId, mode);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code !== 'anchor_budget_exhausted') return { mode: 'none', error: error.code };
    }
    try {
      return { ...(await this.anchor(receiptId, 'batch')), notice: 'anchor_budget_exhausted' };
    } catch (error) {
      if (error instanceof AppError) return { mode: 'none', error: error.code };
      throw error;
    }
  }

  async verifyReceipt(receiptId: string): Promise<ReceiptVerification> {
    const row = await this.find(receiptId);
    const manifest = parseProof(row.manifest);
    let checked = await verifyManifest(manifest, this.o.publishedKeys);
    // The stored hash and issuer are what was handed out at sealing time: they must still match.
    const claimedOrg = (manifest.claim.issuer as { orgId?: unknown } | undefined)?.orgId;
    if (
      checked.status === 'valid' &&
      (checked.manifestHash !== row.manifest_hash || claimedOrg !== row.org_id)
    )
      checked = invalidated(checked, 'tampered', 'tampered');
    const issuer = await this.o.directory.resolve(row.org_id).catch(() => null);
    return {
      ...checked,
      receiptId,
      issuer: {
        ...checked.issuer,
        orgId: row.org_id,
        orgName: issuer?.name ?? row.issuer_name,
        verified: issuer ? issuer.verified : row.identity_verified === 1,
      },
      anchor: await this.anchorEvidence(row),
    };
  }

  /** A bare proof; when it carries an anchor, that anchor is checked too (against the chain). */
  async verifyProof(
    proof: string,
    publicJwk?: P256PublicJwk,
  ): Promise<ManifestVerification & { anchor?: AnchorCheck }> {
    const parsed = parseProof(proof);
    const anchor = parsed.anchor === undefined ? undefined : parseProofAnchor(parsed.anchor);
    const checked = await verifyManifest(parsed, this.o.publishedKeys, publicJwk ? { publicJwk } : {});
    if (!anchor) return checked;
    const relayer = await this.o.relayer.address().catch(() => undefined);
    const fingerprint = anchorRef(checked.manifestHash);
    return { ...checked, anchor: await checkProofAnchor(anchor, fingerprint, this.o.chain, relayer) };
  }

  /** Whether the chain holds a transaction `txHash` from the relayer carrying `root`. */
  async checkRoot(txHash: string, root: string) {
    const relayer = await this.o.relayer.address().catch(() => undefined);
    if (!relayer)
      return { onChain: false, blockNumber: null, confirmations: 0, problem: 'chain_unreachable' as const };
    return this.o.chain.confirm(txHash, { ref: root, from: relayer });
  }

  /** The proof file of a receipt: its manifest, and its anchor once it has one. */
  proofOf(row: ReceiptsTable): Record<string, unknown> {
    // Stored with JSON.stringify, so parsing and serialising again gives the same bytes.
    const manifest = JSON.parse(row.manifest) as Record<string, unknown>;
    const anchor = anchorOf(row);
    if (anchor.mode !== 'onchain') return manifest;
    const { version, ref, root, path, txHash, explorerUrl } = anchor;
    return {
      ...manifest,
      anchor: { version, ref, root, path, txHash, explorerUrl, chainId: row.anchor_chain_id },
    };
  }

  private async anchorEvidence(row: ReceiptsTable): Promise<ReceiptVerification['anchor']> {
    if (!row.anchor_ref || !row.anchor_tx_hash || !row.anchor_from)
      return { onChain: false, txHash: null, mode: 'none' };
    // An anchor stored before batching has no root: its transaction carries the fingerprint.
    const root = row.anchor_root ?? row.anchor_ref;
    const path = parsePath(row.anchor_path);
    // A stuck transaction may have been replaced since: ask the relayer which one is current.
    let txHash = row.anchor_tx_hash;
    let explorerUrl = row.anchor_explorer_url ?? undefined;
    const stated = { mode: 'onchain' as const, root, path: path ?? [] };
    // The fingerprint must lead to the root the transaction is checked for.
    if (!path || !verifyInclusion(row.anchor_ref, path, root))
      return { ...stated, txHash, ...(explorerUrl ? { explorerUrl } : {}), ...notIncluded };
    const latest = await this.o.relayer.status(root).catch(() => null);
    if (latest && latest.ref === root && latest.txHash !== txHash) {
      await this.o.db
        .updateTable('receipts')
        .set({ anchor_tx_hash: latest.txHash, anchor_explorer_url: latest.explorerUrl })
        .where('receipt_id', '=', row.receipt_id)
        .execute();
      txHash = latest.txHash;
      explorerUrl = latest.explorerUrl;
    }
    const evidence = await this.o.chain.confirm(txHash, { ref: root, from: row.anchor_from });
    return { ...stated, txHash, ...(explorerUrl ? { explorerUrl } : {}), ...evidence };
  }

  private async remember(row: ReceiptsTable, anchored: RelayerAnchor) {
    await this.o.db
      .updateTable('receipts')
      .set({
        anchor_ref: anchorRef(row.manifest_hash),
        anchor_root: anchored.ref,
        anchor_path: JSON.stringify(anchored.path),
        anchor_tx_hash: anchored.txHash,
        anchor_explorer_url: anchored.explorerUrl,
        anchor_from: anchored.from,
        anchor_chain_id: anchored.chainId,
        anchored_at: row.anchored_at ?? Date.now(),
      })
      .where('receipt_id', '=', row.receipt_id)
      .execute();
  }
}

function anchorOf(row: ReceiptsTable): AnchorView {
  if (!row.anchor_ref || !row.anchor_tx_hash) return { mode: 'none' };
  return {
    mode: 'onchain',
    version: 2,
    txHash: row.anchor_tx_hash,
    ref: row.anchor_ref,
    explorerUrl: row.anchor_explorer_url ?? '',
    root: row.anchor_root ?? row.anchor_ref,
    path: parsePath(row.anchor_path) ?? [],
  };
}

function anchorResult(ref: string, anchored: RelayerAnchor): AnchorResult {
  return {
    mode: 'onchain',
    version: 2,
    txHash: anchored.txHash,
    ref,
    explorerUrl: anchored.explorerUrl,
    root: anchored.ref,
    path: anchored.path,
  };
}

const notIncluded = { onChain: false, blockNumber: null, confirmations: 0, problem: 'wrong_path' } as const;

/** A stored path: a JSON array of strings (null, before batching, is the empty path); anything else is unusable. */
function parsePath(stored: string | null): string[] | undefined {
  if (stored === null) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) && value.every((node) => typeof node === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}
