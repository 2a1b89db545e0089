import { migrate } from '@xv/platform';
import { describeEachDatabase } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { migrations } from '../src/migrations/index.js';
import { LeaseLostError, SessionStore } from '../src/sessions/store.js';

const message = (content: string) => ({
  id: `msg_${content}`,
  role: 'user' as const,
  content,
  ts: Date.now(),
});

describeEachDatabase('session lease', (target) => {
  let store: SessionStore;

  beforeAll(async () => {
    const database = await target.open('agent');
    await migrate(database, migrations);
    store = new SessionStore(database);
  });

  it('grants one holder at a time and again after release', async () => {
    await store.ensure('lease-a');
    const first = await store.tryLease('lease-a', 'one', 30_000);
    expect(first).toBeDefined();
    expect(await store.tryLease('lease-a', 'two', 30_000)).toBeUndefined();
    await store.release(first!);
    const second = await store.tryLease('lease-a', 'two', 30_000);
    expect(second!.fence).toBe(first!.fence + 1);
  });

  it('fences off a holder whose lease expired and was taken over', async () => {
    await store.ensure('lease-b');
    const stale = (await store.tryLease('lease-b', 'paused', 1))!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const fresh = (await store.tryLease('lease-b', 'active', 30_000))!;
    await expect(store.commitTurn(stale, [message('late')])).rejects.toBeInstanceOf(LeaseLostError);
    expect(await store.renew(stale, 30_000)).toBe(false);
    await store.release(stale); // does not free the new holder's lease
    expect(await store.tryLease('lease-b', 'third', 30_000)).toBeUndefined();
    await store.commitTurn(fresh, [message('on time')]);
    expect((await store.messages('lease-b')).map((m) => m.content)).toEqual(['on time']);
  });
});
