/**
 * @module attestations/attestations
 * Issuing an attestation for an organization and reading one back (with its
 * signature checked against the issuer key that made it).
 */
import { newId } from '@xv/platform';
import { type Hex, verifyTypedData } from 'viem';
import { contentBytes, sha256, taggedHash } from '../crypto/canonical.js';
import type { TrustDb } from '../db.js';
import { errors } from '../errors.js';
import type { Issuer } from '../issuers/directory.js';
import type { Keyring } from '../keys/keyring.js';
import { type EasDomainConfig, type SignedOffchainAttestation, signOffchainAttestation } from './eas.js';

export interface AttestationResult {
  attestationId: string;
  digest: string;
  sig: Hex;
  verifyUrl: string;
  uid: Hex;
  attester: Hex;
  issuerId: string;
  attestation: SignedOffchainAttestation;
}

export class Attestations {
  constructor(
    private readonly o: { db: TrustDb; keyring: Keyring; eas: EasDomainConfig; trustUrl: string },
  ) {}

  async issue(
    issuer: Issuer,
    input: { schema: string; subject: string; claim: unknown },
  ): Promise<AttestationResult> {
    const claimDigest = sha256(contentBytes(input.claim));
    const key = await this.o.keyring.signingKey(issuer);
    const { signed, signature } = await signOffchainAttestation(key.secp256k1, this.o.eas, {
      schema: input.schema,
      subject: input.subject,
      claimDigest,
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
    };
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
    return { row, attestation, signatureValid };
  }
}
