/**
 * XV's attestations, read with the EAS SDK (not XV's code) from the real EAS contracts
 * on the dev chain: the schema UID is the SchemaRegistry's and the registry holds XV's
 * schema; the off-chain signature verifies against the contract's own domain; with
 * `onchain: true` the attestation is on chain, its attester the issuer's published key.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describeEachDatabase } from '@xv/platform/testing';
import canonicalize from 'canonicalize';
import { createPublicClient, http, zeroAddress } from 'viem';
import { beforeAll, expect, it } from 'vitest';
import { newOrganization, type PublishedKey, postJson, startTrustStack, type TrustStack } from './helpers.js';

const require = createRequire(import.meta.url);
// The SDK's ESM build breaks on Node: load its CommonJS build.
const { EAS, SchemaRegistry, SchemaEncoder } = require('@ethereum-attestation-service/eas-sdk');
const { JsonRpcProvider } = require('ethers');

const XV_SCHEMA = 'string schemaUri,string subject,bytes32 claimHash';
const CLAIM = { kyc: 'passed', level: 2 };
const claimHash = `0x${createHash('sha256')
  .update((canonicalize as unknown as (v: unknown) => string)(CLAIM))
  .digest('hex')}`;

describeEachDatabase('EAS SDK against the dev chain', (target) => {
  let stack: TrustStack;
  let acme: Awaited<ReturnType<typeof newOrganization>>;
  let key: PublishedKey;
  let deployment: { chainId: number; eas: string; schemaRegistry: string; version: string };
  let eas: InstanceType<typeof EAS>;

  const attest = async (body: Record<string, unknown>) => {
    const response = await postJson(
      stack.trust,
      '/api/attestation',
      { schema: 'https://schemas.xv.test/kyc', subject: 'did:web:example.com', claim: CLAIM, ...body },
      { cookie: acme.cookie },
    );
    expect(response.status).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    stack = await startTrustStack(target, { identity: true });
    acme = await newOrganization(stack, 'Acme EAS');
    deployment = await (await stack.relayer.fetch('/api/eas')).json();
    eas = new EAS(deployment.eas);
    eas.connect(new JsonRpcProvider(stack.chain.rpcUrl));
    await attest({});
    const { keys } = await (await stack.trust.fetch('/api/keys/jwks')).json();
    key = (keys as PublishedKey[]).find((k) => k.kid === acme.orgId)!;
  });

  it('uses the schema UID the SchemaRegistry gives XV’s schema, and the registry holds it', async () => {
    const result = await attest({});
    const uid = SchemaRegistry.getSchemaUID(XV_SCHEMA, zeroAddress, true);
    expect(result.attestation.message.schema).toBe(uid);
    const registry = new SchemaRegistry(deployment.schemaRegistry);
    registry.connect(new JsonRpcProvider(stack.chain.rpcUrl));
    const record = await registry.getSchema({ uid });
    expect([record.uid, record.schema, record.revocable, record.resolver]).toEqual([
      uid,
      XV_SCHEMA,
      true,
      zeroAddress,
    ]);
  });

  it('every schema URI keeps working: it travels in the data of the one registered schema', async () => {
    for (const schemaUri of [
      'https://schemas.xv.test/membership',
      'xv.kyc.v1',
      `0x${'ab'.repeat(32)}`,
      'ipfs://bafy',
    ]) {
      const result = await attest({ schema: schemaUri });
      const decoded = new SchemaEncoder(XV_SCHEMA).decodeData(result.attestation.message.data);
      expect(
        decoded.map((item: { name: string; value: { value: unknown } }) => [item.name, item.value.value]),
      ).toEqual([
        ['schemaUri', schemaUri],
        ['subject', 'did:web:example.com'],
        ['claimHash', claimHash],
      ]);
    }
  });

  it('signs off chain in the domain of the chain’s EAS contract, which the SDK reads from the chain', async () => {
    const result = await attest({ subject: '0x000000000000000000000000000000000000dEaD' });
    expect(result.attestation.domain).toEqual({
      name: 'EAS Attestation',
      version: await eas.getVersion(),
      chainId: Number(await eas.getChainId()),
      verifyingContract: deployment.eas,
    });
    const offchain = await eas.getOffchain();
    expect(offchain.verifyOffchainAttestationSignature(key.ethAddress, result.attestation)).toBe(true);
    expect(result.attestation.message.recipient).toBe('0x000000000000000000000000000000000000dEaD');
  });

  it('attests on chain with onchain: true, readable with getAttestation, the issuer its attester', async () => {
    const result = await attest({
      onchain: true,
      subject: 'did:pkh:eip155:1:0x000000000000000000000000000000000000dEaD',
    });
    expect(result).toMatchObject({
      attestationId: expect.stringMatching(/^att_/),
      digest: `sha256-${claimHash.slice(2)}`,
      sig: expect.stringMatching(/^0x[0-9a-f]{130}$/),
      verifyUrl: `${stack.trust.url}/verify/${result.attestationId}`,
      onchain: { attester: key.ethAddress, chainId: deployment.chainId, eas: deployment.eas },
    });
    const onchain = await eas.getAttestation(result.onchain.uid);
    expect(onchain.uid).toBe(result.onchain.uid);
    expect(onchain.attester).toBe(key.ethAddress);
    expect(onchain.schema).toBe(SchemaRegistry.getSchemaUID(XV_SCHEMA, zeroAddress, true));
    expect(onchain.recipient).toBe('0x000000000000000000000000000000000000dEaD');
    expect(onchain.data).toBe(result.attestation.message.data);
    expect(await eas.isAttestationValid(result.onchain.uid)).toBe(true);

    const read = await (await stack.trust.fetch(`/api/attestations/${result.attestationId}`)).json();
    expect(read.onchain).toEqual(result.onchain);
  });

  it('attests on chain several times at once for one issuer (each takes the next EAS nonce)', async () => {
    const results = await Promise.all([1, 2, 3].map((n) => attest({ onchain: true, claim: { n } })));
    const uids = results.map((result) => result.onchain.uid);
    expect(new Set(uids).size).toBe(3);
    for (const uid of uids) expect((await eas.getAttestation(uid)).attester).toBe(key.ethAddress);
  });

  it('on-chain attestations drain the relayer: past the daily budget of immediate transactions they are 429', async () => {
    const budgeted = await stack.startTrust({ XV_TRUST_ANCHOR_DAILY_BUDGET: '2' });
    const owner = await newOrganization(stack, 'Acme Budget');
    const relayer = (await (await stack.relayer.fetch('/api/relayer')).json()).address;
    const sent = () =>
      createPublicClient({ transport: http(stack.chain.rpcUrl) }).getTransactionCount({ address: relayer });
    const onchain = (claim: unknown) =>
      postJson(
        budgeted,
        '/api/attestation',
        { schema: 'https://schemas.xv.test/kyc', subject: 'usr_1', claim, onchain: true },
        { cookie: owner.cookie },
      );
    expect((await onchain(1)).status).toBe(200);
    expect((await onchain(2)).status).toBe(200);
    const before = await sent();
    const refused = await onchain(3);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe('anchor_budget_exhausted');
    expect(await sent()).toBe(before);
    // Off chain costs the relayer nothing: it goes on.
    const offchain = await postJson(
      budgeted,
      '/api/attestation',
      { schema: 'https://schemas.xv.test/kyc', subject: 'usr_1', claim: 4 },
      { cookie: owner.cookie },
    );
    expect(offchain.status).toBe(200);
  });

  it('an on-chain attestation the relayer could not send gives its transaction back to the budget', async () => {
    const budgeted = await stack.startTrust({ XV_TRUST_ANCHOR_DAILY_BUDGET: '1' });
    const owner = await newOrganization(stack, 'Acme Refund');
    const relayer = (await (await stack.relayer.fetch('/api/relayer')).json()).address;
    const client = createPublicClient({ transport: http(stack.chain.rpcUrl) });
    const funds = await client.getBalance({ address: relayer });
    const body = { schema: 'https://schemas.xv.test/kyc', subject: 'usr_1', claim: 1, onchain: true };
    const attest = () => postJson(budgeted, '/api/attestation', body, { cookie: owner.cookie });

    await stack.chain.rpc('anvil_setBalance', [relayer, '0x0']);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the relayer reads its balance once a second
    const refused = await attest();
    expect(refused.status).toBe(503);
    expect((await refused.json()).error).toBe('relayer_low_balance');

    await stack.chain.rpc('anvil_setBalance', [relayer, `0x${funds.toString(16)}`]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await attest()).status).toBe(200);
    expect((await attest()).status).toBe(429);
  });
});
