import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from './load.js';

/** Records every body it receives; answers `{"valid":false}` to bodies containing "bad", else `{"valid":true}`. */
let server: Server;
let url: string;
const received: string[] = [];
/** `<path> <cookie header> <x-shared header>` of every request. */
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push(body);
      seen.push(`${request.url} ${request.headers.cookie ?? ''} ${request.headers['x-shared'] ?? ''}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ valid: !body.includes('bad') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = { method: 'POST', headers: { 'content-type': 'application/json' } };

describe('runLoad', () => {
  it('sends each body exactly once with `once`, spread over the connections, and counts unexpected answers', async () => {
    received.length = 0;
    const bodies = Array.from({ length: 37 }, (_, i) =>
      JSON.stringify({ n: i, kind: i % 10 === 0 ? 'bad' : 'ok' }),
    );
    const result = await runLoad({
      url,
      ...post,
      bodies,
      once: true,
      connections: 4,
      expect: '"valid":true',
    });
    expect([...received].sort()).toEqual([...bodies].sort());
    expect(result.requests).toBe(37);
    expect(result.unexpected).toBe(4);
    expect(result.answered).toBe(33);
    expect(result.errors + result.non2xx).toBe(0);
    expect(result.requestsPerSecond).toBeGreaterThan(0);
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);
    expect(result.cpuSeconds).toBeGreaterThanOrEqual(0);
  });

  it('sends the bodies round robin otherwise', async () => {
    received.length = 0;
    const bodies = ['{"a":1}', '{"b":2}', '{"c":3}'];
    const result = await runLoad({ url, ...post, bodies, amount: 30, connections: 2 });
    expect(result.requests).toBe(30);
    expect(new Set(received)).toEqual(new Set(bodies));
    expect(result.unexpected).toBe(0);
    expect(result.answered).toBe(30);
  });

  it('sends one fixed request `amount` times from the command line', async () => {
    received.length = 0;
    const result = await runLoad({ url, ...post, body: '{"bad":true}', amount: 12, connections: 3 });
    expect(received).toEqual(Array(12).fill('{"bad":true}'));
    // Without `expect`, every 2xx answer counts as answered.
    expect(result.answered).toBe(12);
  });

  it('checks the answers of one repeated body against `expect`', async () => {
    const result = await runLoad({
      url,
      ...post,
      body: '{"bad":true}',
      amount: 10,
      connections: 2,
      expect: '"valid":true',
    });
    expect(result.requests).toBe(10);
    expect(result.unexpected).toBe(10);
    expect(result.answered).toBe(0);
  });

  it('rotates paths and header sets, keeping the shared headers', async () => {
    seen.length = 0;
    const result = await runLoad({
      url,
      headers: { cookie: 'shared', 'x-shared': 'yes' },
      paths: ['/a', '/b'],
      headerSets: [{ cookie: 's1' }, { cookie: 's2' }, { cookie: 's3' }],
      amount: 24,
      connections: 2,
    });
    expect(result.requests).toBe(24);
    expect(new Set(seen.map((line) => line.split(' ')[0]))).toEqual(new Set(['/a', '/b']));
    expect(new Set(seen.map((line) => line.split(' ')[1]))).toEqual(new Set(['s1', 's2', 's3']));
    expect(new Set(seen.map((line) => line.split(' ')[2]))).toEqual(new Set(['yes']));
  });

  it('refuses `once` without bodies', async () => {
    await expect(runLoad({ url, once: true })).rejects.toThrow(/bodies/);
  });
});
