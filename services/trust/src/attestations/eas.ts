/**
 * @module attestations/eas
 * EAS attestations in the shapes the EAS contracts and SDK take, all on XV's one
 * registered schema, `string schemaUri,string subject,bytes32 claimHash`: whatever
 * schema URI a caller names travels in the data, next to the subject and the SHA-256
 * of the claim (a string as UTF-8, else RFC 8785). Its UID is the SchemaRegistry's:
 * keccak256(abi.encodePacked(schema, resolver = 0, revocable = true)).
 *
 * - Off chain (version 2): EIP-712 `Attest` under the domain "EAS Attestation", the EAS
 *   contract's version, the chain id and its address, signed by the issuer's secp256k1
 *   key (what the SDK's `Offchain.verifyOffchainAttestationSignature` checks).
 * - On chain: the same content signed as a delegated attestation (domain "EAS"), which
 *   the relayer submits with `attestByDelegation`: the attester on chain is the issuer.
 */
import { randomBytes } from 'node:crypto';
import {
  encodeAbiParameters,
  encodePacked,
  getAddress,
  type Hex,
  keccak256,
  parseSignature,
  stringToHex,
  zeroAddress,
  zeroHash,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';

export const EAS_VERSION_2 = 2;

/** XV's schema, as registered in the SchemaRegistry (no resolver, revocable). */
export const XV_ATTESTATION_SCHEMA = 'string schemaUri,string subject,bytes32 claimHash';
export const XV_SCHEMA_REVOCABLE = true;
export const XV_SCHEMA_UID: Hex = keccak256(
  encodePacked(['string', 'address', 'bool'], [XV_ATTESTATION_SCHEMA, zeroAddress, XV_SCHEMA_REVOCABLE]),
);

export const ATTEST_TYPES = {
  Attest: [
    { name: 'version', type: 'uint16' },
    { name: 'schema', type: 'bytes32' },
    { name: 'recipient', type: 'address' },
    { name: 'time', type: 'uint64' },
    { name: 'expirationTime', type: 'uint64' },
    { name: 'revocable', type: 'bool' },
    { name: 'refUID', type: 'bytes32' },
    { name: 'data', type: 'bytes' },
    { name: 'salt', type: 'bytes32' },
  ],
} as const;

/** The EAS contract's delegated `Attest` (EIP1271Verifier.ATTEST_TYPEHASH). */
export const DELEGATED_ATTEST_TYPES = {
  Attest: [
    { name: 'attester', type: 'address' },
    { name: 'schema', type: 'bytes32' },
    { name: 'recipient', type: 'address' },
    { name: 'expirationTime', type: 'uint64' },
    { name: 'revocable', type: 'bool' },
    { name: 'refUID', type: 'bytes32' },
    { name: 'data', type: 'bytes' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint64' },
  ],
} as const;

/** Where the EAS contract is: the chain, its address and its `version()`. */
export interface EasDomainConfig {
  chainId: number;
  contract: string;
  version: string;
}

export interface SignedOffchainAttestation {
  version: 2;
  uid: Hex;
  domain: { name: 'EAS Attestation'; version: string; chainId: number; verifyingContract: Hex };
  primaryType: 'Attest';
  types: typeof ATTEST_TYPES;
  message: {
    version: 2;
    schema: Hex;
    recipient: Hex;
    time: number;
    expirationTime: number;
    revocable: boolean;
    refUID: Hex;
    data: Hex;
    salt: Hex;
  };
  signature: { v: number; r: Hex; s: Hex };
}

/** What an attestation says, encoded for XV's schema. */
export interface AttestationContent {
  recipient: Hex;
  data: Hex;
}

export function attestationData(schemaUri: string, subject: string, claimDigest: Uint8Array): Hex {
  return encodeAbiParameters(
    [
      { name: 'schemaUri', type: 'string' },
      { name: 'subject', type: 'string' },
      { name: 'claimHash', type: 'bytes32' },
    ],
    [schemaUri, subject, `0x${Buffer.from(claimDigest).toString('hex')}`],
  );
}

/** The off-chain UID exactly as the EAS SDK computes it for version 2 (schema hashed as its text). */
export function offchainUid(message: SignedOffchainAttestation['message']): Hex {
  return keccak256(
    encodePacked(
      [
        'uint16',
        'bytes',
        'address',
        'address',
        'uint64',
        'uint64',
        'bool',
        'bytes32',
        'bytes',
        'bytes32',
        'uint32',
      ],
      [
        message.version,
        stringToHex(message.schema),
        message.recipient,
        zeroAddress,
        BigInt(message.time),
        BigInt(message.expirationTime),
        message.revocable,
        message.refUID,
        message.data,
        message.salt,
        0,
      ],
    ),
  );
}

export async function signOffchainAttestation(
  signer: PrivateKeyAccount,
  config: EasDomainConfig,
  content: AttestationContent & { time: Date },
): Promise<{ signed: SignedOffchainAttestation; signature: Hex }> {
  const message: SignedOffchainAttestation['message'] = {
    version: EAS_VERSION_2,
    schema: XV_SCHEMA_UID,
    recipient: content.recipient,
    time: Math.floor(content.time.getTime() / 1000),
    expirationTime: 0,
    revocable: XV_SCHEMA_REVOCABLE,
    refUID: zeroHash,
    data: content.data,
    salt: `0x${randomBytes(32).toString('hex')}`,
  };
  const domain = {
    name: 'EAS Attestation' as const,
    version: config.version,
    chainId: config.chainId,
    verifyingContract: getAddress(config.contract),
  };
  const signature = await signer.signTypedData({
    domain,
    types: ATTEST_TYPES,
    primaryType: 'Attest',
    message: { ...message, time: BigInt(message.time), expirationTime: BigInt(message.expirationTime) },
  });
  return {
    signature,
    signed: {
      version: EAS_VERSION_2,
      uid: offchainUid(message),
      domain,
      primaryType: 'Attest',
      types: ATTEST_TYPES,
      message,
      signature: splitSignature(signature),
    },
  };
}

/** The body of the relayer's `POST /api/eas/attestations`: a delegated attestation, signed. */
export async function signDelegatedAttestation(
  signer: PrivateKeyAccount,
  config: EasDomainConfig,
  content: AttestationContent & { nonce: bigint; deadline: bigint },
) {
  const message = {
    attester: signer.address,
    schema: XV_SCHEMA_UID,
    recipient: content.recipient,
    expirationTime: 0n,
    revocable: XV_SCHEMA_REVOCABLE,
    refUID: zeroHash,
    data: content.data,
    value: 0n,
    nonce: content.nonce,
    deadline: content.deadline,
  };
  const signature = await signer.signTypedData({
    domain: {
      name: 'EAS',
      version: config.version,
      chainId: config.chainId,
      verifyingContract: getAddress(config.contract),
    },
    types: DELEGATED_ATTEST_TYPES,
    primaryType: 'Attest',
    message,
  });
  return {
    schema: message.schema,
    recipient: message.recipient,
    expirationTime: '0',
    revocable: message.revocable,
    refUID: message.refUID,
    data: message.data,
    attester: message.attester,
    deadline: message.deadline.toString(),
    signature: splitSignature(signature),
  };
}

function splitSignature(signature: Hex): { v: number; r: Hex; s: Hex } {
  const { r, s, v, yParity } = parseSignature(signature);
  return { v: Number(v ?? BigInt(yParity + 27)), r, s };
}
