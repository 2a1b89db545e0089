/**
 * @module attestations/eas
 * EAS off-chain attestations, version 2: EIP-712 typed data (`Attest`) signed by
 * the issuer's secp256k1 key, in the shape the EAS SDK verifies
 * (`Offchain.verifyOffchainAttestationSignature`).
 *
 * - `schema`: a schema UID (0x + 32 bytes) as given, else keccak256 of the schema URI.
 * - `recipient`: the subject when it is an Ethereum address (or a `did:pkh:eip155:…`
 *   of one), else the zero address.
 * - `data`: ABI encoding of `(string schema, string subject, bytes32 claimDigest)`,
 *   where claimDigest is the SHA-256 of the claim (a string as UTF-8, else RFC 8785).
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

export function schemaUid(schema: string): Hex {
  return /^0x[0-9a-fA-F]{64}$/.test(schema) ? (schema.toLowerCase() as Hex) : keccak256(stringToHex(schema));
}

export function recipientOf(subject: string): Hex {
  const address = /^(?:did:pkh:eip155:\d+:)?(0x[0-9a-fA-F]{40})$/.exec(subject)?.[1];
  return address ? getAddress(address) : zeroAddress;
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
  input: { schema: string; subject: string; claimDigest: Uint8Array; time: Date },
): Promise<{ signed: SignedOffchainAttestation; signature: Hex }> {
  const message: SignedOffchainAttestation['message'] = {
    version: EAS_VERSION_2,
    schema: schemaUid(input.schema),
    recipient: recipientOf(input.subject),
    time: Math.floor(input.time.getTime() / 1000),
    expirationTime: 0,
    revocable: true,
    refUID: zeroHash,
    data: encodeAbiParameters(
      [
        { name: 'schema', type: 'string' },
        { name: 'subject', type: 'string' },
        { name: 'claimDigest', type: 'bytes32' },
      ],
      [input.schema, input.subject, `0x${Buffer.from(input.claimDigest).toString('hex')}`],
    ),
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
  const { r, s, v, yParity } = parseSignature(signature);
  return {
    signature,
    signed: {
      version: EAS_VERSION_2,
      uid: offchainUid(message),
      domain,
      primaryType: 'Attest',
      types: ATTEST_TYPES,
      message,
      signature: { v: Number(v ?? BigInt(yParity + 27)), r, s },
    },
  };
}
