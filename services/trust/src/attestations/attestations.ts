/**
 * @module attestations/attestations
 * Issuing an attestation for an organization and reading one back, checked by the
 * rule of every verification: the EIP-712 signature recovers to the address of a key
 * the organization published, and the attestation is dated inside that key's window.
 */
import { AppError, newId } from '@xv/platform';
import { type Hex, verifyTypedData } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { AnchorBudget } from '../anchoring/budget.js';
import type { RelayedAttestation } from '../anchoring/relayer-client.js';
import { contentBytes, sha256, taggedHash } from '../crypto/canonical.js';
import type { TrustDb } from '../db.js';
import { errors } from '../errors.js';
import type { Issuer } from '../issuers/directory.js';
import {
  type OutsideValidity,
  outsideValidity,
  type PublishedKeys,
  type UnpublishedKey,
} from '../issuers/published-keys.js';
import type { Keyring } from '../keys/keyring.js';
import {
  type AttestationContent,
  attestationData,
  type SignedOffchainAttestation,
  signOffchainAttestation,
} from './eas.js';
import type { EasChain } from './eas-chain.js';
import { recipientOf } from './subjects.js';

/** Answers after which no transaction went out. */
const NOTHING_SENT = new Set(['relayer_low_balance', 'eas_unavailable', 'onchain_attestation_rejected']);

export interface AttestationResult {
  attestationId: string;
  digest: string;
  sig: Hex;
  verifyUrl: string;
  uid: Hex;
  attester: Hex;
  issuerId: string;
  attestation: SignedOffchainAttestation;
  /** The same attestation made on chain, when asked for (`onchain: true`). */
  onchain?: RelayedAttestation;
}

export interface AttestationVerification {
  /** The signature holds, and is the named issuer's within its key's validity window. */
  valid: boolean;
  /** The EIP-712 signature recovers to the stored attester address. */
  signatureValid: boolean;
  /** The attester address is that of a key the issuer published, valid at the attestation's time. */
  issuerVerified: boolean;
  reason?: 'bad_signature' | UnpublishedKey | OutsideValidity;
}

export class Attestations {
  constructor(
    private readonly o: {
      db: TrustDb;
      keyring: Keyring;
      publishedKeys: PublishedKeys;
      eas: EasChain;
      budget: AnchorBudget;
      trustUrl: string;
    },
  ) {}

  /**
   * Signs an off-chain attestation and, with `onchain`, has the same content attested on
   * chain first (so a refusal there leaves nothing half made).
   */
  async issue(
    issuer: Issuer,
    input: { schema: string; subject: string; claim: unknown; onchain?: boolean },
  ): Promise<AttestationResult> {
    const recipient = recipientOf(input.subject);
    const claimDigest = sha256(contentBytes(input.claim));
    const content = { recipient, data: attestationData(input.schema, input.subject, claimDigest) };
    const domain = await this.o.eas.domain();
    const key = await this.o.keyring.signingKey(issuer);
    const onchain = input.onchain ? await this.attestOnchain(issuer, key.secp256k1, content) : undefined;
    const { signed, signature } = await signOffchainAttestation(key.secp256k1, domain, {
      ...content,
      time: new Date(),
    });
    const attestationId = newId('att');
    const digest = taggedHash(claimDigest);
    await this.o.db
      .insertInto('attestations')
      .values({
        attestation_id: attestationId,
        org_id: issuer.orgId,
        key_id: key.keyId,
        schema: input.schema,
        subject: input.subject,
        digest,
        uid: signed.uid,
        attester: key.ethAddress,
        signed: JSON.stringify(signed),
        onchain: onchain ? JSON.stringify(onchain) : null,
        created_at: Date.now(),
      })
      .execute();
    return {
      attestationId,
      digest,
      sig: signature,
      verifyUrl: `${this.o.trustUrl}/verify/${attestationId}`,
      uid: signed.uid,
      attester: key.ethAddress,
      issuerId: issuer.orgId,
      attestation: signed,
      ...(onchain ? { onchain } : {}),
    };
  }

  /**
   * An on-chain attestation is a transaction the relayer pays for: it spends one of the
   * organization's immediate transactions of the day (shared with immediate anchors), given
   * back when the relayer sent nothing.
   */
  private async attestOnchain(issuer: Issuer, signer: PrivateKeyAccount, content: AttestationContent) {
    await this.o.budget.spend(issuer.orgId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'anchor_budget_exhausted')
        throw errors.anchor_budget_exhausted(
          "The organization's immediate transactions for today (UTC), anchors and on-chain attestations, are spent; attest off chain until tomorrow.",
        );
      throw error;
    });
    try {
      return await this.o.eas.attest(signer, content);
    } catch (error) {
      if (error instanceof AppError && NOTHING_SENT.has(error.code)) await this.o.budget.refund(issuer.orgId);
      throw error;
    }
  }

  async find(attestationId: string) {
    const row = await this.o.db
      .selectFrom('attestations')
      .selectAll()
      .where('attestation_id', '=', attestationId)
      .executeTakeFirst();
    if (!row) throw errors.attestation_not_found();
    const attestation = JSON.parse(row.signed) as SignedOffchainAttestation;
    const { r, s, v } = attestation.signature;
    const signatureValid = await verifyTypedData({
      address: row.attester as Hex,
      domain: attestation.domain,
      types: attestation.types,
      primaryType: 'Attest',
      message: {
        ...attestation.message,
        time: BigInt(attestation.message.time),
        expirationTime: BigInt(attestation.message.expirationTime),
      },
      signature: `${r}${s.slice(2)}${v.toString(16).padStart(2, '0')}` as Hex,
    }).catch(() => false);
    const onchain = row.onchain ? (JSON.parse(row.onchain) as RelayedAttestation) : undefined;
    return { row, attestation, onchain, ...(await this.issuerCheck(row, attestation, signatureValid)) };
  }

  private async issuerCheck(
    row: { org_id: string; key_id: string; attester: string },
    attestation: SignedOffchainAttestation,
    signatureValid: boolean,
  ): Promise<AttestationVerification> {
    const found = await this.o.publishedKeys.find(row.org_id, row.key_id);
    let reason: AttestationVerification['reason'];
    if ('unpublished' in found) reason = found.unpublished;
    else if (found.key.ethAddress.toLowerCase() !== row.attester.toLowerCase()) reason = 'unknown_issuer_key';
    else reason = outsideValidity(found.key, attestation.message.time * 1000) ?? undefined;
    if (!signatureValid) reason = 'bad_signature';
    const issuerVerified = reason === undefined;
    return {
      valid: issuerVerified,
      signatureValid,
      issuerVerified,
      ...(reason ? { reason } : {}),
    };
  }
}
