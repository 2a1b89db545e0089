import { describe, expect, it, vi } from 'vitest';
import { createLogger, lazyChild, withoutRedaction } from './logger.js';

/** A logger that keeps its lines, with the time fixed so that two lines can be compared. */
function recordingLogger() {
  const lines: string[] = [];
  const logger = createLogger('sample', 'info', { write: (line: string) => void lines.push(line) });
  return { logger, lines, last: () => JSON.parse(lines.at(-1) ?? 'null') };
}

describe('the request line logger', () => {
  it('writes what a child with the request id writes', () => {
    const { logger, lines } = recordingLogger();
    const line = { method: 'POST', path: '/api/echo', status: 200, ms: 1.25 };
    logger.child({ reqId: 'r-1' }).info(line, 'request');
    withoutRedaction(logger).info({ reqId: 'r-1', ...line }, 'request');
    const [viaChild, viaLine] = lines.map((text) => text.replace(/"time":"[^"]+"/, '"time":"T"'));
    expect(viaLine).toBe(viaChild);
  });

  it('leaves the redaction of every other logger in place', () => {
    const { logger, last } = recordingLogger();
    withoutRedaction(logger);
    logger.info({ password: 'hunter2', headers: { cookie: 'xv_session=abc' } }, 'login');
    expect(last()).toMatchObject({ password: '[redacted]', headers: { cookie: '[redacted]' } });
  });
});

describe('a lazy child logger', () => {
  it('is made only when used, once, and logs with its bindings and redaction', () => {
    const { logger, last } = recordingLogger();
    const child = vi.spyOn(logger, 'child');
    const lazy = lazyChild(logger, { reqId: 'r-2' });
    expect(child).not.toHaveBeenCalled();
    lazy.info({ token: 'secret-token', step: 1 }, 'first');
    expect(last()).toMatchObject({ reqId: 'r-2', token: '[redacted]', step: 1, msg: 'first' });
    lazy.warn('second');
    expect(last()).toMatchObject({ reqId: 'r-2', level: 40, msg: 'second' });
    expect(lazy.isLevelEnabled('debug')).toBe(false);
    expect(child).toHaveBeenCalledTimes(1);
  });
});
