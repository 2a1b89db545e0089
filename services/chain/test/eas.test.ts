/**
 * The relayer runs the real EAS contracts: it deploys SchemaRegistry and EAS
 * (eas-contracts 1.9.0) on a fresh dev chain, never twice, registers schemas and submits
 * delegated attestations; the EAS SDK reads them back from the chain.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ANVIL_CHAIN_ID,
  ANVIL_DEV_PRIVATE_KEY,
  DEV_EAS_ADDRESS,
  DEV_EAS_DEPLOYER,
  DEV_SCHEMA_REGISTRY_ADDRESS,
} from '@xv/chain';
import { type DevChain, startDevChain, startRelayer, TEST_RELAYER_TOKEN } from '@xv/chain/testing';
import type { Database } from '@xv/platform';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseSignature,
  zeroAddress,
  zeroHash,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, expect, it } from 'vitest';
import { bearer } from './helpers.js';

const require = createRequire(import.meta.url);
// The SDK's ESM build breaks on Node: load its CommonJS build.
const { EAS, SchemaRegistry, SchemaEncoder } = require('@ethereum-attestation-service/eas-sdk');
const { JsonRpcProvider } = require('ethers');

const SCHEMA = 'string note,uint256 score';
const RELAYER_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describeEachDatabase('EAS on the dev chain', (target) => {
  let chain: DevChain;
  let database: Database;
  let relayer: RunningService;

  const post = (path: string, body: unknown, token: string | null = TEST_RELAYER_TOKEN) =>
    relayer.fetch(path, {
      method: 'POST',
      headers: token ? bearer(token) : { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const nonceOf = (address: Hex) =>
    createPublicClient({ transport: http(chain.rpcUrl) }).getTransactionCount({ address });

  beforeAll(async () => {
    chain = await startDevChain();
    database = await target.open('chain');
    relayer = await startRelayer(database, { rpcUrl: chain.rpcUrl });
  });

  it('deploys SchemaRegistry and EAS at the dev addresses, and the SDK reads their version', async () => {
    const info = await (await relayer.fetch('/api/eas')).json();
    expect(info).toEqual({
      chainId: ANVIL_CHAIN_ID,
      eas: DEV_EAS_ADDRESS,
      schemaRegistry: DEV_SCHEMA_REGISTRY_ADDRESS,
      version: '1.4.0',
    });
    const eas = new EAS(DEV_EAS_ADDRESS);
    eas.connect(new JsonRpcProvider(chain.rpcUrl));
    expect(await eas.getVersion()).toBe('1.4.0');
    expect(await eas.contract.getSchemaRegistry()).toBe(DEV_SCHEMA_REGISTRY_ADDRESS);
  });

  it('does not deploy again when the chain holds the contracts', async () => {
    expect(await nonceOf(DEV_EAS_DEPLOYER.address)).toBe(2);
    const again = await startRelayer(await target.open('chain_again'), { rpcUrl: chain.rpcUrl });
    expect((await (await again.fetch('/api/eas')).json()).eas).toBe(DEV_EAS_ADDRESS);
    expect(await nonceOf(DEV_EAS_DEPLOYER.address)).toBe(2);
  });

  it('refuses schema registrations and attestations without the relayer credential', async () => {
    expect((await post('/api/eas/schemas', { schema: SCHEMA }, null)).status).toBe(401);
    expect(
      (await post('/api/eas/schemas', { schema: SCHEMA }, 'xvc_wrong-token-0123456789abcdef')).status,
    ).toBe(401);
    expect((await post('/api/eas/attestations', {}, null)).status).toBe(401);
  });

  it('a number field that is not a number is a 400, never a crash of its range check', async () => {
    const zero = `0x${'00'.repeat(32)}`;
    const attester = `0x${'11'.repeat(20)}`;
    const signature = { v: 27, r: zero, s: zero };
    const base = {
      schema: zero,
      recipient: attester,
      revocable: true,
      refUID: zero,
      data: '0x',
      attester,
      signature,
    };
    for (const bad of [
      { deadline: 'xxxxxx' },
      { deadline: '1', expirationTime: '12ab' },
      { deadline: '1'.repeat(21) },
    ]) {
      const response = await post('/api/eas/attestations', { ...base, ...bad });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect((await response.json()).error).toBe('invalid_request');
    }
  });

  it('registers a schema once, under the UID the SDK computes, readable with the SDK', async () => {
    const first = await post('/api/eas/schemas', { schema: SCHEMA, revocable: true });
    expect(first.status).toBe(200);
    const registered = await first.json();
    expect(registered.uid).toBe(SchemaRegistry.getSchemaUID(SCHEMA, zeroAddress, true));
    expect(registered.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const second = await (await post('/api/eas/schemas', { schema: SCHEMA, revocable: true })).json();
    expect(second).toEqual({ uid: registered.uid, txHash: null });

    const registry = new SchemaRegistry(DEV_SCHEMA_REGISTRY_ADDRESS);
    registry.connect(new JsonRpcProvider(chain.rpcUrl));
    const record = await registry.getSchema({ uid: registered.uid });
    const { uid, schema, revocable, resolver } = record;
    expect({ uid, schema, revocable, resolver }).toEqual({
      uid: registered.uid,
      schema: SCHEMA,
      revocable: true,
      resolver: zeroAddress,
    });
  });

  it('submits an attestation its attester signed, readable with getAttestation', async () => {
    const { uid: schema } = await (await post('/api/eas/schemas', { schema: SCHEMA })).json();
    const attester = privateKeyToAccount(generatePrivateKey());
    const recipient = '0x000000000000000000000000000000000000dEaD';
    const data = new SchemaEncoder(SCHEMA).encodeData([
      { name: 'note', value: 'passed', type: 'string' },
      { name: 'score', value: 42n, type: 'uint256' },
    ]) as Hex;
    const request = await delegated(attester, { schema, recipient, data });
    const relayerNonce = await nonceOf(RELAYER_ADDRESS);

    const forged = await post('/api/eas/attestations', { ...request, recipient: zeroAddress });
    expect(forged.status).toBe(422);
    expect((await forged.json()).error).toBe('eas_call_rejected');
    expect(await nonceOf(RELAYER_ADDRESS)).toBe(relayerNonce);

    const response = await post('/api/eas/attestations', request);
    expect(response.status).toBe(201);
    const recorded = await response.json();
    expect(recorded).toMatchObject({
      attester: attester.address,
      chainId: ANVIL_CHAIN_ID,
      eas: DEV_EAS_ADDRESS,
    });

    const eas = new EAS(DEV_EAS_ADDRESS);
    eas.connect(new JsonRpcProvider(chain.rpcUrl));
    const onchain = await eas.getAttestation(recorded.uid);
    expect(onchain.uid).toBe(recorded.uid);
    expect(onchain.schema).toBe(schema);
    expect(onchain.attester).toBe(attester.address);
    expect(onchain.recipient).toBe(recipient);
    expect(onchain.data).toBe(data);
    expect(await eas.isAttestationValid(recorded.uid)).toBe(true);

    // The same signature cannot be submitted twice: its nonce is spent.
    expect((await post('/api/eas/attestations', request)).status).toBe(422);
  });

  it('describes the EAS routes in its OpenAPI document', async () => {
    const response = await relayer.fetch('/openapi.json');
    expect(response.status).toBe(200);
    const { paths } = await response.json();
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining(['/api/eas', '/api/eas/schemas', '/api/eas/attestations']),
    );
  });

  it('refuses a forged attestation with a mixed-case address as the contract would, not as a chain failure', async () => {
    const response = await post('/api/eas/attestations', {
      schema: `0x${'Ab'.repeat(32)}`,
      recipient: '0x37C235C6BaCcdA6FB2CFcfDF26ebbaedAcBC6BfD',
      revocable: true,
      refUID: zeroHash,
      data: '0xC0FFEE',
      attester: '0x37C235C6BaCcdA6FB2CFcfDF26ebbaedAcBC6BfD',
      deadline: '18446744073709551615',
      signature: { v: 255, r: `0x${'Ff'.repeat(32)}`, s: zeroHash },
    });
    expect(response.status).toBe(422);
    expect((await response.json()).error).toBe('eas_call_rejected');
  });

  it('answers a malformed attestation request with 400', async () => {
    for (const body of [{ schema: '0x12' }, { schema: zeroHash, recipient: 'nobody' }]) {
      expect((await post('/api/eas/attestations', body)).status).toBe(400);
    }
  });

  async function delegated(
    attester: ReturnType<typeof privateKeyToAccount>,
    fields: { schema: Hex; recipient: Hex; data: Hex },
  ) {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const nonce = (await client.readContract({
      address: DEV_EAS_ADDRESS,
      abi: [
        {
          type: 'function',
          name: 'getNonce',
          stateMutability: 'view',
          inputs: [{ name: 'account', type: 'address' }],
          outputs: [{ type: 'uint256' }],
        },
      ],
      functionName: 'getNonce',
      args: [attester.address],
    })) as bigint;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 600);
    const message = {
      attester: attester.address,
      schema: fields.schema,
      recipient: fields.recipient,
      expirationTime: 0n,
      revocable: true,
      refUID: zeroHash,
      data: fields.data,
      value: 0n,
      nonce,
      deadline,
    };
    const signature = parseSignature(
      await attester.signTypedData({
        domain: {
          name: 'EAS',
          version: '1.4.0',
          chainId: ANVIL_CHAIN_ID,
          verifyingContract: DEV_EAS_ADDRESS,
        },
        types: DELEGATED_ATTEST_TYPES,
        primaryType: 'Attest',
        message,
      }),
    );
    return {
      schema: fields.schema,
      recipient: fields.recipient,
      expirationTime: '0',
      revocable: true,
      refUID: zeroHash,
      data: fields.data,
      attester: attester.address,
      deadline: deadline.toString(),
      signature: { v: Number(signature.v), r: signature.r, s: signature.s },
    };
  }
});

const DELEGATED_ATTEST_TYPES = {
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

describeEachDatabase('EAS on a dev chain that keeps its state', (target) => {
  it('is deployed once: after the chain restarts from its state file, nothing is deployed again', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'xv-anvil-'));
    const first = await startDevChain({ stateDir });
    await startRelayer(await target.open('chain_state_a'), { rpcUrl: first.rpcUrl });
    const firstClient = createPublicClient({ transport: http(first.rpcUrl) });
    expect(await firstClient.getTransactionCount({ address: DEV_EAS_DEPLOYER.address })).toBe(2);
    await first.stop();

    const second = await startDevChain({ stateDir });
    const client = createPublicClient({ transport: http(second.rpcUrl) });
    expect(await client.getCode({ address: DEV_EAS_ADDRESS })).toMatch(/^0x[0-9a-f]{100,}/);
    const relayer = await startRelayer(await target.open('chain_state_b'), { rpcUrl: second.rpcUrl });
    expect((await (await relayer.fetch('/api/eas')).json()).eas).toBe(DEV_EAS_ADDRESS);
    expect(await client.getTransactionCount({ address: DEV_EAS_DEPLOYER.address })).toBe(2);
  });
});

describeEachDatabase('EAS on another chain', (target) => {
  const OTHER_CHAIN_ID = 4242;
  let chain: DevChain;
  const env = (extra: Record<string, string> = {}) => ({
    XV_CHAIN_PRIVATE_KEY: ANVIL_DEV_PRIVATE_KEY,
    ...extra,
  });

  beforeAll(async () => {
    chain = await startDevChain({ chainId: OTHER_CHAIN_ID });
  });

  it('deploys nothing there: without XV_CHAIN_EAS_ADDRESS the EAS routes answer eas_not_configured', async () => {
    const relayer = await startRelayer(await target.open('chain_other_a'), {
      rpcUrl: chain.rpcUrl,
      env: env(),
    });
    const response = await relayer.fetch('/api/eas');
    expect(response.status).toBe(503);
    expect((await response.json()).error).toBe('eas_not_configured');
    expect(
      await createPublicClient({ transport: http(chain.rpcUrl) }).getCode({ address: DEV_EAS_ADDRESS }),
    ).toBe(undefined);
  });

  it('uses the contracts XV_CHAIN_EAS_ADDRESS names, and refuses a wrong or empty address at start', async () => {
    const deployer = createWalletClient({
      account: privateKeyToAccount(ANVIL_DEV_PRIVATE_KEY),
      transport: http(chain.rpcUrl),
    });
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const deploy = async (artifact: string, args: unknown[]) => {
      const { abi, bytecode } = require(
        `@ethereum-attestation-service/eas-contracts/artifacts/contracts/${artifact}.sol/${artifact}.json`,
      );
      const hash = await deployer.deployContract({ abi, bytecode, args, chain: null });
      return (await client.waitForTransactionReceipt({ hash })).contractAddress as Hex;
    };
    const registry = await deploy('SchemaRegistry', []);
    const easAddress = await deploy('EAS', [registry]);

    const relayer = await startRelayer(await target.open('chain_other_b'), {
      rpcUrl: chain.rpcUrl,
      env: env({ XV_CHAIN_EAS_ADDRESS: easAddress, XV_CHAIN_SCHEMA_REGISTRY_ADDRESS: registry }),
    });
    expect(await (await relayer.fetch('/api/eas')).json()).toEqual({
      chainId: OTHER_CHAIN_ID,
      eas: getAddress(easAddress),
      schemaRegistry: getAddress(registry),
      version: '1.4.0',
    });

    await expect(
      startRelayer(await target.open('chain_other_c'), {
        rpcUrl: chain.rpcUrl,
        env: env({ XV_CHAIN_EAS_ADDRESS: easAddress, XV_CHAIN_SCHEMA_REGISTRY_ADDRESS: easAddress }),
      }),
    ).rejects.toThrow(/XV_CHAIN_SCHEMA_REGISTRY_ADDRESS/);
    await expect(
      startRelayer(await target.open('chain_other_d'), {
        rpcUrl: chain.rpcUrl,
        env: env({ XV_CHAIN_EAS_ADDRESS: '0x000000000000000000000000000000000000dEaD' }),
      }),
    ).rejects.toThrow(/XV_CHAIN_EAS_ADDRESS/);
  });
});
