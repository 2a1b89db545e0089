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

  if (target.dialect === 'postgres') {
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
