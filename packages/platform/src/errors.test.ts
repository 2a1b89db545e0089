import { describe, expect, it } from 'vitest';
import { AppError, platformErrors, suspendStackTraces } from './errors.js';

/** The `at …` lines of an error's stack. */
const frames = (error: Error) =>
  (error.stack ?? '').split('\n').filter((line) => line.trim().startsWith('at '));

describe('errors', () => {
  it('a 4xx answer captures no stack trace; a 5xx keeps its stack', () => {
    const rejected = platformErrors.rate_limited();
    expect(rejected.status).toBe(429);
    expect(frames(rejected)).toEqual([]);
    expect(rejected.toJSON()).toMatchObject({ ok: false, error: 'rate_limited' });
    const fault = new AppError(500, 'internal', 'Something broke.');
    expect(frames(fault).length).toBeGreaterThan(0);
  });

  it('stack traces come back once the verdict is made, even for other errors', () => {
    const restore = suspendStackTraces();
    const quiet = new Error('verdict');
    restore();
    expect(frames(quiet)).toEqual([]);
    expect(frames(new Error('fault')).length).toBeGreaterThan(0);
    new AppError(404, 'not_found', 'No such thing.');
    expect(frames(new Error('after a 4xx')).length).toBeGreaterThan(0);
  });
});
