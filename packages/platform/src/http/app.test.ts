import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { sampleService } from '../testing/fixtures/sample-service.js';
import { type RunningService, startService, tempDir } from '../testing/index.js';

let service: RunningService;

beforeAll(async () => {
  const database = await openDatabase({ service: 'sample', dataDir: tempDir() });
  service = await startService(sampleService, {
    database,
    env: { XV_SHARED_DOMAIN: 'xv.test', XV_BODY_LIMIT_BYTES: '2048', XV_KB_URL: 'https://kb.elsewhere.test' },
  });
});

const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
  service.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await response.json();
  expect(body).toMatchObject({ ok: false, error: code });
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

describe('the platform app', () => {
  it('answers health, readiness and metrics', async () => {
    expect(await (await service.fetch('/healthz')).json()).toEqual({ ok: true, service: 'orchestration' });
    expect((await service.fetch('/readyz')).status).toBe(200);
    await service.fetch('/api/public/info');
    const metrics = await (await service.fetch('/metrics')).text();
    expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/api\/public\/info",status="200"/);
    expect(metrics).toContain('http_request_duration_seconds_bucket');
  });

  it('publishes OpenAPI and renders it at /docs', async () => {
    const doc = await (await service.fetch('/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/echo'].post.requestBody.required).toBe(true);
    const page = await (await service.fetch('/docs')).text();
    expect(page).toContain('/api/echo');
  });

  it('validates a typed JSON body', async () => {
    const ok = await postJson('/api/echo', JSON.stringify({ name: 'a', count: 2 }));
    expect(await ok.json()).toEqual({ name: 'a', count: 2 });
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    await expectError(await postJson('/api/echo', '{"name": '), 400, 'invalid_json');
  });

  it('answers a wrong type with 400 invalid_request naming the field', async () => {
    const body = await expectError(
      await postJson('/api/echo', JSON.stringify({ name: 'a', count: 'two' })),
      400,
      'invalid_request',
    );
    expect(body.message).toContain('count');
  });

  it('answers a missing field and a missing body with 400 invalid_request', async () => {
    await expectError(await postJson('/api/echo', JSON.stringify({ count: 1 })), 400, 'invalid_request');
    await expectError(await service.fetch('/api/echo', { method: 'POST' }), 400, 'invalid_request');
  });

  it('answers a non-JSON content type with 415', async () => {
    const response = await service.fetch('/api/echo', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'name=a',
    });
    await expectError(response, 415, 'unsupported_media_type');
  });

  it('answers an oversized body with 413 before reading it all', async () => {
    await expectError(
      await postJson('/api/echo', JSON.stringify({ name: 'x'.repeat(5000), count: 1 })),
      413,
      'payload_too_large',
    );
  });

  it('counts a body of undeclared length (chunked) as it reads it: 413 over the limit, read under it', async () => {
    const chunked = (text: string) =>
      service.fetch('/api/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([text]).stream(),
        duplex: 'half',
      } as RequestInit);
    await expectError(
      await chunked(JSON.stringify({ name: 'x'.repeat(5000), count: 1 })),
      413,
      'payload_too_large',
    );
    const small = await chunked(JSON.stringify({ name: 'a', count: 2 }));
    expect(await small.json()).toEqual({ name: 'a', count: 2 });
  });

  it('closes the connection after a 413, so no next request is sent on a socket the server drops', async () => {
    const response = await postJson('/api/echo', JSON.stringify({ name: 'x'.repeat(5000), count: 1 }));
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    await response.body?.cancel();
    const next = await postJson('/api/echo', JSON.stringify({ name: 'a', count: 2 }));
    expect(next.status).toBe(200);
  });

  it('says Connection: close when it answers without reading the body, and keeps alive when it read it', async () => {
    const unread = await postJson('/nowhere', JSON.stringify({ name: 'x'.repeat(1000) }));
    expect(unread.status).toBe(404);
    expect(unread.headers.get('connection')).toBe('close');
    const read = await postJson('/api/echo', JSON.stringify({ name: 'a', count: 2 }));
    expect(read.status).toBe(200);
    expect(read.headers.get('connection')).toBe('keep-alive');
  });

  it('answers an unknown route with 404 not_found', async () => {
    await expectError(await service.fetch('/nowhere'), 404, 'not_found');
  });

  it('hides the details of an unexpected failure', async () => {
    const body = await expectError(await service.fetch('/boom'), 500, 'internal_error');
    expect(JSON.stringify(body)).not.toContain('secret internal detail');
  });

  it('gives every response a request id and security headers', async () => {
    const response = await service.fetch('/healthz', { headers: { 'x-request-id': 'trace-42' } });
    expect(response.headers.get('x-request-id')).toBe('trace-42');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const generated = await service.fetch('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('CORS', () => {
  it('lets a site under the shared domain call with credentials', async () => {
    const response = await service.fetch('/api/shared/whoami', { headers: { origin: 'https://kb.xv.test' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://kb.xv.test');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('answers a preflight from a subdomain', async () => {
    const response = await service.fetch('/api/shared/write', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.xv.test', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.xv.test');
  });

  it.each([
    'https://evil.test',
    'https://xv.test.evil.test',
    'https://evilxv.test',
    'http://kb.xv.test',
    'null',
  ])('gives no CORS grant to %s', async (origin) => {
    const response = await service.fetch('/api/shared/whoami', { headers: { origin } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('marks a public endpoint readable by any origin even when no Origin is sent', async () => {
    const response = await service.fetch('/api/public/info');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('lets any origin read a public endpoint, without credentials', async () => {
    const response = await service.fetch('/api/public/info', {
      headers: { origin: 'https://anyone.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('CSRF protection', () => {
  const cookie = { cookie: 'xv_session=abc' };

  it('refuses a cookie-carrying write from a foreign origin', async () => {
    const response = await service.fetch('/api/shared/write', {
      method: 'POST',
      headers: { ...cookie, origin: 'https://evil.test' },
    });
    await expectError(response, 403, 'forbidden_origin');
  });

  it('refuses a cookie-carrying write marked cross-site by the browser', async () => {
    const response = await service.fetch('/api/shared/write', {
      method: 'POST',
      headers: { ...cookie, 'sec-fetch-site': 'cross-site' },
    });
    await expectError(response, 403, 'forbidden_origin');
  });

  it('accepts the write from a site under the shared domain and from the service itself', async () => {
    for (const origin of ['https://app.xv.test', service.url]) {
      const response = await service.fetch('/api/shared/write', {
        method: 'POST',
        headers: { ...cookie, origin },
      });
      expect(response.status).toBe(200);
    }
  });

  it('accepts `Origin: null` only when the browser says the post is same-origin', async () => {
    const headers = { ...cookie, origin: 'null' };
    const same = await service.fetch('/api/shared/write', {
      method: 'POST',
      headers: { ...headers, 'sec-fetch-site': 'same-origin' },
    });
    expect(same.status).toBe(200);
    const cross = await service.fetch('/api/shared/write', {
      method: 'POST',
      headers: { ...headers, 'sec-fetch-site': 'cross-site' },
    });
    await expectError(cross, 403, 'forbidden_origin');
    await expectError(
      await service.fetch('/api/shared/write', { method: 'POST', headers }),
      403,
      'forbidden_origin',
    );
  });

  it('accepts the write from another service at its configured URL, outside the shared domain', async () => {
    const response = await service.fetch('/api/shared/write', {
      method: 'POST',
      headers: { ...cookie, origin: 'https://kb.elsewhere.test' },
    });
    expect(response.status).toBe(200);
    const lookalike = await service.fetch('/api/shared/write', {
      method: 'POST',
      headers: { ...cookie, origin: 'https://kb.elsewhere.test.evil.test' },
    });
    await expectError(lookalike, 403, 'forbidden_origin');
  });

  it('lets writes without cookies through (bearer clients cannot ride a session)', async () => {
    const response = await service.fetch('/api/shared/write', {
      method: 'POST',
      headers: { origin: 'https://evil.test' },
    });
    expect(response.status).toBe(200);
  });
});
