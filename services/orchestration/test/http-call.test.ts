/**
 * The HTTP call of the network connectors: a redirect is answered, never
 * followed; a body over the cap is refused; statuses map to retry or give up; an
 * aborted call rejects with the abort's reason; the parameters reach the upstream.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@xv/platform/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { StepError } from '../src/workflows/connectors/connector.js';
import { callHttp, MAX_RESPONSE_BYTES } from '../src/workflows/connectors/fetch.js';

const received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
const server = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
  if (req.url === '/redirect') {
    res.writeHead(302, { location: '/target' }).end();
  } else if (req.url === '/huge') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('x'.repeat(MAX_RESPONSE_BYTES + 1));
  } else if (req.url === '/text') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('plain words');
  } else if (req.url?.startsWith('/status/')) {
    res.writeHead(Number(req.url.slice(8)), { 'content-type': 'application/json' }).end('{}');
  } else if (req.url === '/slow') {
    setTimeout(() => res.writeHead(200).end('late'), 2_000);
  } else {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"value":42}');
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

const call = (
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) =>
  callHttp('The upstream', `${base}${path}`, {
    method: 'GET',
    ...init,
    signal: new AbortController().signal,
  });

async function stepErrorOf(promise: Promise<unknown>): Promise<StepError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StepError);
  return error as StepError;
}

describe('callHttp', () => {
  it('parses a JSON answer and sends the method, headers and JSON body', async () => {
    const answer = await call('/json', { method: 'POST', body: { tag: 'a' }, headers: { 'x-extra': '1' } });
    expect(answer).toEqual({ status: 200, body: { value: 42 } });
    const last = received.at(-1)!;
    expect(last.method).toBe('POST');
    expect(JSON.parse(last.body)).toEqual({ tag: 'a' });
    expect(last.headers['content-type']).toBe('application/json');
    expect(last.headers.accept).toBe('application/json');
    expect(last.headers['x-extra']).toBe('1');
  });

  it('keeps a body that is not JSON as text, and sends no body with GET', async () => {
    expect(await call('/text', { body: { ignored: true } })).toEqual({ status: 200, body: 'plain words' });
    expect(received.at(-1)!.body).toBe('');
  });

  it('answers a redirect without following it', async () => {
    const before = received.length;
    const error = await stepErrorOf(call('/redirect'));
    expect(error.message).toBe('The upstream answered with HTTP 302.');
    expect(error.retryable).toBe(false);
    expect(received.slice(before).map((r) => r.url)).toEqual(['/redirect']);
  });

  it('refuses an answer over the size cap, for good', async () => {
    const error = await stepErrorOf(call('/huge'));
    expect(error.message).toBe(`The upstream answered with more than ${MAX_RESPONSE_BYTES} bytes.`);
    expect(error.retryable).toBe(false);
  });

  it('retries 5xx, 408 and 429, and gives up on other 4xx', async () => {
    for (const [status, retryable] of [
      [503, true],
      [408, true],
      [429, true],
      [404, false],
      [400, false],
    ] as const) {
      const error = await stepErrorOf(call(`/status/${status}`));
      expect([error.message, error.retryable]).toEqual([
        `The upstream answered with HTTP ${status}.`,
        retryable,
      ]);
    }
  });

  it('calls a host that does not answer retryable', async () => {
    const port = await freePort();
    const error = await stepErrorOf(
      callHttp('The closed port', `http://127.0.0.1:${port}/`, {
        method: 'GET',
        signal: new AbortController().signal,
      }),
    );
    expect([error.message, error.retryable]).toEqual(['The closed port could not be reached.', true]);
  });

  it('rejects with the reason of an abort', async () => {
    const controller = new AbortController();
    const reason = new Error('timed out');
    const pending = callHttp('The upstream', `${base}/slow`, { method: 'GET', signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });
});
