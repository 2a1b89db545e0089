/**
 * Two relayer instances with one key on one PostgreSQL database (two connection
 * pools, as two processes have): every nonce is handed out once, a hash anchored
 * through both at the same moment gets one anchor, and instances starting together
 * on a new database both start.
 */
import { type DevChain, startDevChain, startRelayer, TEST_RELAYER_TOKEN } from '@xv/chain/testing';
import { type Database, openDatabase } from '@xv/platform';
import { type RunningService, testDatabaseTargets } from '@xv/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, eventually, randomHash } from './helpers.js';

const postgres = testDatabaseTargets().find((t) => t.dialect === 'postgres');

describe.runIf(postgres)('two relayer instances on one key and one PostgreSQL database', () => {
  let chain: DevChain;
  let second: Database;
  let relayers: RunningService[];

  const anchor = (relayer: RunningService, hash: string) =>
    relayer
      .fetch('/api/anchors', {
        method: 'POST',
        headers: bearer(TEST_RELAYER_TOKEN),
        body: JSON.stringify({ hash }),
      })
      .then(async (r) => ({ status: r.status, body: await r.json() }));

  beforeAll(async () => {
    chain = await startDevChain();
    const database = await postgres!.open('chain');
    second = await openDatabase({
      service: 'chain',
      url: process.env.XV_TEST_DATABASE_URL,
      schema: database.schema!,
      poolSize: 4,
    });
    // Started together on an empty database: both create the nonce row.
    relayers = await Promise.all([database, second].map((db) => startRelayer(db, { rpcUrl: chain.rpcUrl })));
  });

  afterAll(async () => {
    for (const relayer of relayers ?? []) await relayer.close();
    await second?.close();
  });

  it('anchors a hash sent to both at once one time, and hands out every nonce once', async () => {
    const shared = randomHash();
    const others = Array.from({ length: 6 }, randomHash);
    const answers = await Promise.all([
      anchor(relayers[0]!, shared),
      anchor(relayers[1]!, shared),
      ...others.map((hash, i) => anchor(relayers[i % 2]!, hash)),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201, 201, 201, 201, 201, 201, 201]);
    expect(answers[1]!.body.txHash).toBe(answers[0]!.body.txHash);
    const nonces = answers.slice(1).map((a) => a.body.nonce as number);
    expect(new Set(nonces).size).toBe(7);
    for (const hash of [shared, ...others]) {
      await eventually(async () => {
        const response = await relayers[0]!.fetch(`/api/anchors/${hash}`, {
          headers: bearer(TEST_RELAYER_TOKEN),
        });
        return (await response.json()).status === 'confirmed' ? true : undefined;
      });
    }
    // The chain took exactly one transaction per anchor.
    const sent = await chain.rpc<string>('eth_getTransactionCount', [answers[0]!.body.from, 'latest']);
    expect(Number(sent)).toBe(Math.max(...nonces) + 1);
  });
});
