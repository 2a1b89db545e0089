import type { RateLimiterRes } from 'rate-limiter-flexible';
import { expect, it } from 'vitest';
import { consumeOrReject, createRateLimiter, isLimited } from './ratelimit.js';
import { describeEachDatabase } from './testing/index.js';

describeEachDatabase('rate limits', (target) => {
  it('lets the budget through, then answers 429 with Retry-After', async () => {
    const database = await target.open('rl');
    const limiter = await createRateLimiter(database, { keyPrefix: 'test', points: 3, durationSeconds: 60 });
    for (let i = 0; i < 3; i++) await consumeOrReject(limiter, 'ip-1');
    const error = await consumeOrReject(limiter, 'ip-1').catch((e) => e);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(error.headers['Retry-After'])).toBeGreaterThan(0);
    expect(await isLimited(limiter, 'ip-1')).not.toBeNull();
    await consumeOrReject(limiter, 'ip-2'); // another key has its own budget
  });

  it('blocks for the lockout period once the points are spent', async () => {
    const database = await target.open('rl');
    const limiter = await createRateLimiter(database, {
      keyPrefix: 'lock',
      points: 1,
      durationSeconds: 1,
      blockSeconds: 600,
    });
    await consumeOrReject(limiter, 'acct');
    const error = await consumeOrReject(limiter, 'acct').catch((e) => e);
    expect(Number(error.headers['Retry-After'])).toBeGreaterThan(500);
  });

  it('a burst of concurrent requests gets exactly the budget, and each learns its own count', async () => {
    const database = await target.open('rl');
    const limiter = await createRateLimiter(database, { keyPrefix: 'burst', points: 5, durationSeconds: 60 });
    // On PostgreSQL a second instance shares the budget; on SQLite there is one process, so one limiter.
    const other =
      target.dialect === 'postgres'
        ? await createRateLimiter(database, { keyPrefix: 'burst', points: 5, durationSeconds: 60 })
        : limiter;
    // Twenty requests on one key and three on another, all in the same turn.
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 10 }, () => limiter.consume('ip-burst')),
      ...Array.from({ length: 10 }, () => other.consume('ip-burst')),
      ...Array.from({ length: 3 }, () => limiter.consume('ip-calm')),
    ]);
    const burst = outcomes.slice(0, 20);
    expect(burst.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    expect(outcomes.slice(20).every((o) => o.status === 'fulfilled')).toBe(true);
    // Each request that went through saw a different count: none was told the budget twice.
    const remaining = burst.flatMap((o) => (o.status === 'fulfilled' ? [o.value.remainingPoints] : []));
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
    expect((await limiter.get('ip-burst'))?.consumedPoints).toBe(20);
    expect((await limiter.get('ip-calm'))?.consumedPoints).toBe(3);
  });

  it('a window that ended starts again, also for a burst', async () => {
    const database = await target.open('rl');
    const limiter = await createRateLimiter(database, { keyPrefix: 'window', points: 2, durationSeconds: 1 });
    await consumeOrReject(limiter, 'k');
    await consumeOrReject(limiter, 'k');
    await expect(consumeOrReject(limiter, 'k')).rejects.toMatchObject({ status: 429 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => limiter.consume('k')));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const first = outcomes[0] as PromiseFulfilledResult<RateLimiterRes>;
    expect(first.value.isFirstInDuration).toBe(true);
  });

  if (target.dialect === 'postgres') {
    it('counts the requests of one turn with one statement on PostgreSQL', async () => {
      const database = await target.open('rl');
      const limiter = await createRateLimiter(database, {
        keyPrefix: 'one',
        points: 100,
        durationSeconds: 60,
      });
      const pool = database.pool!;
      const query = pool.query.bind(pool);
      let statements = 0;
      pool.query = ((...args: Parameters<typeof query>) => {
        statements += 1;
        return query(...args);
      }) as typeof pool.query;
      try {
        await Promise.all(Array.from({ length: 30 }, (_, i) => limiter.consume(`ip-${i % 7}`)));
      } finally {
        pool.query = query;
      }
      expect(statements).toBe(1);
      expect((await limiter.get('ip-0'))?.consumedPoints).toBe(5);
    });

    it('shares one budget between instances on PostgreSQL', async () => {
      const database = await target.open('rl');
      const a = await createRateLimiter(database, { keyPrefix: 'shared', points: 4, durationSeconds: 60 });
      const b = await createRateLimiter(database, { keyPrefix: 'shared', points: 4, durationSeconds: 60 });
      await consumeOrReject(a, 'k');
      await consumeOrReject(b, 'k');
      await consumeOrReject(a, 'k');
      await consumeOrReject(b, 'k');
      await expect(consumeOrReject(a, 'k')).rejects.toMatchObject({ status: 429 });
    });
  }
});
