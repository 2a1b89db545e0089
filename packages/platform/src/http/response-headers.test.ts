import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { defineService } from '../service.js';
import { type RunningService, startService, tempDir } from '../testing/index.js';
import { publicCors, sharedDomainCors } from './cors.js';
import { SECURITY_HEADERS } from './response-headers.js';

/** Routes whose answers try to set what the platform owns, and one written straight to the Node response. */
const headerService = defineService()({
  name: 'orchestration',
  description: 'Routes for the response header tests.',
  migrations: {},
  setup(app, { settings }) {
    app.use('/shared/*', sharedDomainCors(settings.sharedDomain));
    app.use('/public/*', publicCors());
    app.get('/shared/varying', (c) => c.json({ ok: true }, 200, { Vary: 'Accept-Language' }));
    app.get('/public/info', (c) => c.json({ ok: true }));
    app.get('/plain', (c) => c.json({ ok: true }));
    app.get('/own-headers', (c) =>
      c.json({ ok: true }, 200, {
        'Referrer-Policy': 'no-referrer',
        'X-Powered-By': 'Hono',
        'Content-Security-Policy': 'default-src *',
        'Cache-Control': 'no-store',
      }),
    );
    app.get('/page', (c) => c.html('<!doctype html><title>Page</title>'));
    app.get('/node-written', (c) => {
      const outgoing = (c.env as { outgoing: ServerResponse }).outgoing;
      outgoing.writeHead(200, {
        'Content-Type': 'text/plain',
        'Content-Security-Policy': "script-src 'self'",
      });
      outgoing.end('written by a mounted Node app');
      return RESPONSE_ALREADY_SENT;
    });
  },
});

let service: RunningService;
beforeAll(async () => {
  const database = await openDatabase({ service: 'sample', dataDir: tempDir() });
  service = await startService(headerService, { database, env: { XV_SHARED_DOMAIN: 'xv.test' } });
});

/** Every header of an answer, the request id and the nonce blanked (they differ per request). */
async function headersOf(response: Response): Promise<Record<string, string>> {
  await response.body?.cancel();
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers)
    if (!['date', 'connection', 'keep-alive'].includes(name))
      headers[name] = value.replace(/'nonce-[^']+'/g, "'nonce-…'");
  headers['x-request-id'] = headers['x-request-id'] ? 'present' : 'missing';
  return headers;
}

describe('the platform response headers', () => {
  it("are the same set Hono's secureHeaders gives with the platform's options", async () => {
    const app = new Hono();
    app.use(
      secureHeaders({
        crossOriginResourcePolicy: false,
        crossOriginOpenerPolicy: 'same-origin',
        referrerPolicy: 'strict-origin-when-cross-origin',
      }),
    );
    app.get('/', (c) => c.text('ok'));
    const response = await app.request('/');
    const library = Object.fromEntries(
      [...response.headers].filter(([name]) => name !== 'content-type').map(([n, v]) => [n, v]),
    );
    const ours = Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([n, v]) => [n.toLowerCase(), v]));
    expect(ours).toEqual(library);
  });

  it.each(['/plain', '/own-headers', '/page', '/nowhere', '/shared/varying', '/public/info'])(
    'are the same over HTTP and through app.request (%s)',
    async (path) => {
      const headers = { origin: 'https://app.xv.test' };
      const served = await headersOf(await service.fetch(path, { headers }));
      const direct = await headersOf(await service.app.request(path, { headers }));
      delete served['content-length'];
      delete direct['content-length'];
      expect(served).toEqual(direct);
      expect(served['x-content-type-options']).toBe('nosniff');
      expect(served['x-request-id']).toBe('present');
    },
  );

  it("win over a handler's own values, and X-Powered-By is never sent", async () => {
    for (const response of [await service.fetch('/own-headers'), await service.app.request('/own-headers')]) {
      const headers = await headersOf(response);
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers['x-powered-by']).toBeUndefined();
      expect(headers['cache-control']).toBe('no-store');
    }
  });

  it("add CORS to the answer's own Vary, and grant the origin", async () => {
    const headers = { origin: 'https://app.xv.test' };
    for (const response of [
      await service.fetch('/shared/varying', { headers }),
      await service.app.request('/shared/varying', { headers }),
    ]) {
      const sent = await headersOf(response);
      expect(sent.vary).toBe('Accept-Language, Origin');
      expect(sent['access-control-allow-origin']).toBe('https://app.xv.test');
      expect(sent['access-control-allow-credentials']).toBe('true');
    }
    const publicInfo = await headersOf(await service.fetch('/public/info'));
    expect(publicInfo['access-control-allow-origin']).toBe('*');
    expect(publicInfo.vary).toBeUndefined();
  });

  it('leave an answer written straight to the Node response as it was written', async () => {
    const headers = await headersOf(await service.fetch('/node-written'));
    expect(headers['content-security-policy']).toBe("script-src 'self'");
    expect(headers['x-request-id']).toBe('missing');
  });

  it('keep a valid incoming request id and replace any other', async () => {
    const kept = await service.fetch('/plain', { headers: { 'x-request-id': 'trace_42-a' } });
    expect(kept.headers.get('x-request-id')).toBe('trace_42-a');
    for (const given of ['with space', 'a.b', 'a=b', 'x'.repeat(129)]) {
      const replaced = await service.fetch('/plain', { headers: { 'x-request-id': given } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
