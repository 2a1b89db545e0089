/**
 * The proofs and attestations verify with other people's code: viem recovers
 * `ethSig` to the published `ethAddress`, WebCrypto verifies `p256Sig` with the
 * published JWK, and the EAS SDK verifies an attestation.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describeEachDatabase } from '@xv/platform/testing';
import canonicalize from 'canonicalize';
import { decodeAbiParameters, type Hex, recoverMessageAddress } from 'viem';
import { beforeAll, expect, it } from 'vitest';
import type { ReceiptView } from '../src/receipts/receipts.js';
import { newOrganization, type PublishedKey, postJson, startTrustStack, type TrustStack } from './helpers.js';

const require = createRequire(import.meta.url);
// The SDK's ESM build breaks on Node: load its CommonJS build.
const { EAS } = require('@ethereum-attestation-service/eas-sdk');
const { JsonRpcProvider } = require('ethers');

const jcs = (value: unknown) => (canonicalize as unknown as (v: unknown) => string)(value);

describeEachDatabase('independent verification', (target) => {
  let stack: TrustStack;
  let acme: Awaited<ReturnType<typeof newOrganization>>;
  let receipt: ReceiptView;
  let key: PublishedKey;

  beforeAll(async () => {
    stack = await startTrustStack(target, { identity: true });
    acme = await newOrganization(stack, 'Acme Independent');
    receipt = await (
      await postJson(stack.trust, '/api/seal', { modelId: 'm', output: 'hello' }, { cookie: acme.cookie })
    ).json();
    const { keys } = await (await stack.trust.fetch('/api/keys/jwks')).json();
    key = (keys as PublishedKey[]).find((k) => k.kid === acme.orgId)!;
  });

  it('ethSig recovers with viem to the key set ethAddress', async () => {
    const digest = Buffer.from(receipt.manifestHash.slice('sha256-'.length), 'hex');
    const recovered = await recoverMessageAddress({
      message: { raw: digest },
      signature: receipt.ethSig as Hex,
    });
    expect(recovered).toBe(key.ethAddress);
  });

  it('p256Sig verifies with WebCrypto from the key set jwk over the RFC 8785 claim', async () => {
    const publicKey = await crypto.subtle.importKey(
      'jwk',
      key.jwk,
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    const bytes = new TextEncoder().encode(jcs(receipt.manifest.claim));
    const signature = Buffer.from(receipt.p256Sig, 'base64url');
    const algorithm = { name: 'ECDSA', hash: 'SHA-256' };
    expect(await crypto.subtle.verify(algorithm, publicKey, signature, bytes)).toBe(true);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(receipt.manifestHash.slice(7));
    const other = new TextEncoder().encode(jcs({ ...receipt.manifest.claim, tier: 2 }));
    expect(await crypto.subtle.verify(algorithm, publicKey, signature, other)).toBe(false);
  });

  it('an attestation verifies with the EAS SDK off-chain verification against the chain EAS contract', async () => {
    const response = await postJson(
      stack.trust,
      '/api/attestation',
      {
        schema: 'https://schemas.xv.test/kyc-pass',
        subject: 'did:web:example.com',
        claim: { kyc: 'passed', level: 2 },
      },
      { cookie: acme.cookie },
    );
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.attestationId).toMatch(/^att_[0-9a-z]{26}$/);
    expect(result.digest).toBe(
      `sha256-${createHash('sha256')
        .update(jcs({ kyc: 'passed', level: 2 }))
        .digest('hex')}`,
    );
    expect(result.sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect(result.verifyUrl).toBe(`${stack.trust.url}/verify/${result.attestationId}`);
    expect(result.attester).toBe(key.ethAddress);

    const signed = result.attestation;
    expect(signed.version).toBe(2);
    // The SDK reads the domain (chain id, contract version) from the contract on the chain.
    const { eas: easAddress } = await (await stack.relayer.fetch('/api/eas')).json();
    const eas = new EAS(easAddress);
    eas.connect(new JsonRpcProvider(stack.chain.rpcUrl));
    const offchain = await eas.getOffchain();
    expect(offchain.verifyOffchainAttestationSignature(key.ethAddress, signed)).toBe(true);
    expect(
      offchain.verifyOffchainAttestationSignature('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', signed),
    ).toBe(false);
    const forged = structuredClone(signed);
    forged.message.recipient = '0x000000000000000000000000000000000000dEaD';
    expect(offchain.verifyOffchainAttestationSignature(key.ethAddress, forged)).toBe(false);

    const [schema, subject, claimDigest] = decodeAbiParameters(
      [{ type: 'string' }, { type: 'string' }, { type: 'bytes32' }],
      signed.message.data,
    );
    expect([schema, subject, claimDigest]).toEqual([
      'https://schemas.xv.test/kyc-pass',
      'did:web:example.com',
      `0x${result.digest.slice(7)}`,
    ]);
  });
});
