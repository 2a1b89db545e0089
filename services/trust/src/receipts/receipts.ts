/**
 * @module receipts/receipts
 * Sealing a record into a receipt, finding and showing receipts, and verifying a
 * receipt (signatures, issuer, chain) or a bare proof. Anchoring is
 * anchoring/receipt-anchors.ts.
 */
import { newId } from '@xv/platform';
import type { AnchorCheck } from '../anchoring/inclusion.js';
import { parseProofAnchor } from '../anchoring/inclusion.js';
import type { ReceiptAnchors } from '../anchoring/receipt-anchors.js';
import { contentBytes, hashContent, sha256, taggedHash } from '../crypto/canonical.js';
import type { ReceiptsTable, TrustDb } from '../db.js';
import { errors } from '../errors.js';
import type { IssuerDirectory } from '../issuers/directory.js';
import type { PublishedKeys } from '../issuers/published-keys.js';
import type { Keyring, P256PublicJwk } from '../keys/keyring.js';
import { CLAIM_TYPE, type Claim, type ClaimSigner, type Manifest, signManifest } from '../seal/manifest.js';
import { needsStepUp } from '../seal/policy.js';
import type { SignatureChecker } from '../seal/signature-checks.js';
import { invalidated, type ManifestVerification, parseProof, verifyManifest } from '../seal/verify.js';
import {
  anchorRef,
  findReceipt,
  proofOf,
  type ReceiptVerification,
  type ReceiptView,
  receiptView,
  type SealRequest,
} from './views.js';

export type {
  AnchorMode,
  AnchorResult,
  AnchorView,
  ReceiptVerification,
  ReceiptView,
  SealRequest,
} from './views.js';

export interface ReceiptsOptions {
  db: TrustDb;
  keyring: Keyring;
  /** The keys a proof may be signed with: those its issuer published. */
  publishedKeys: PublishedKeys;
  /** Where the signatures are made (a SigningPool in the service). */
  signer: ClaimSigner;
  /** Where the signatures of proofs are checked (the same SigningPool); default: this thread. */
  checker?: SignatureChecker;
  directory: IssuerDirectory;
  anchors: ReceiptAnchors;
  trustUrl: string;
  inputLimitBytes: number;
}

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

  find(receiptId: string): Promise<ReceiptsTable> {
    return findReceipt(this.o.db, receiptId);
  }

  view(row: ReceiptsTable, manifest = JSON.parse(row.manifest) as Manifest): ReceiptView {
    return receiptView(row, manifest, this.o.trustUrl);
  }

  async verifyReceipt(receiptId: string): Promise<ReceiptVerification> {
    const row = await this.find(receiptId);
    const manifest = parseProof(row.manifest);
    let checked = await verifyManifest(manifest, this.o.publishedKeys, { checker: this.o.checker });
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
      anchor: await this.o.anchors.evidence(row),
    };
  }

  /** A bare proof; when it carries an anchor, that anchor is checked too (against the chain). */
  async verifyProof(
    proof: string,
    publicJwk?: P256PublicJwk,
  ): Promise<ManifestVerification & { anchor?: AnchorCheck }> {
    const parsed = parseProof(proof);
    const anchor = parsed.anchor === undefined ? undefined : parseProofAnchor(parsed.anchor);
    const checked = await verifyManifest(parsed, this.o.publishedKeys, {
      checker: this.o.checker,
      publicJwk,
    });
    if (!anchor) return checked;
    return { ...checked, anchor: await this.o.anchors.checkProof(anchor, anchorRef(checked.manifestHash)) };
  }

  /** The proof file of a receipt: its manifest, and its anchor once it has one. */
  proofOf(row: ReceiptsTable): Record<string, unknown> {
    return proofOf(row);
  }
}
