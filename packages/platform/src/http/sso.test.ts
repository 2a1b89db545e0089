import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IdentitySession } from '../auth/principals.js';
import { SsoClient } from './sso.js';

/** A stand-in for the identity service's `GET /api/session`, counting the calls it answers. */
let server: Server;
let identityUrl: string;
let calls = 0;
let delayMs = 0;
let failing = false;
const sessions = new Map<string, IdentitySession>();

function tokenOf(req: IncomingMessage) {
  return /xv_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    calls++;
    await new Promise((r) => setTimeout(r, delayMs));
    if (failing) {
      res.writeHead(500).end();
      return;
    }
    const session = sessions.get(tokenOf(req) ?? '');
    res.writeHead(session ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(session ?? { authenticated: false }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  identityUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  calls = 0;
  delayMs = 0;
  failing = false;
  sessions.clear();
});

const alice: IdentitySession = {
  authenticated: true,
  realmId: 'default',
  user: { id: 'usr_a', email: 'a@example.com', name: 'Alice', avatar_color: '#123456' },
  memberships: [{ org_id: 'org_a', org_name: 'A', role: 'admin', permissions: ['review:decide'] }],
  amr: ['pwd'],
  aal: 'AAL1',
};

describe('SSO client', () => {
  it('returns the session for a valid cookie and null for an unknown one', async () => {
    sessions.set('good', alice);
    const sso = new SsoClient({ identityUrl });
    expect(await sso.introspect('good')).toEqual(alice);
    expect(await sso.introspect('bad')).toBeNull();
  });

  it('asks identity once for a burst of look-ups of the same session', async () => {
    sessions.set('good', alice);
    delayMs = 50;
    const sso = new SsoClient({ identityUrl, cacheTtlMs: 5000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => sso.introspect('good')));
    expect(results.every((s) => s?.user.id === 'usr_a')).toBe(true);
    expect(calls).toBe(1);
  });

  it('asks again once the short cache has expired, so a logout takes effect', async () => {
    sessions.set('good', alice);
    const sso = new SsoClient({ identityUrl, cacheTtlMs: 30 });
    await sso.introspect('good');
    sessions.delete('good');
    expect(await sso.introspect('good')).not.toBeNull(); // still cached
    await new Promise((r) => setTimeout(r, 40));
    expect(await sso.introspect('good')).toBeNull();
    expect(calls).toBe(2);
  });

  it('reports an unavailable identity service as 503 and does not remember the failure', async () => {
    sessions.set('good', alice);
    failing = true;
    const sso = new SsoClient({ identityUrl });
    await expect(sso.introspect('good')).rejects.toMatchObject({ status: 503, code: 'unavailable' });
    failing = false;
    expect(await sso.introspect('good')).toEqual(alice);
  });

  it('reports an unreachable identity service as 503', async () => {
    const sso = new SsoClient({ identityUrl: 'http://127.0.0.1:1', timeoutMs: 500 });
    await expect(sso.introspect('x')).rejects.toMatchObject({ status: 503 });
  });

  it('keeps its cache bounded', async () => {
    const sso = new SsoClient({ identityUrl, maxEntries: 5 });
    for (let i = 0; i < 12; i++) await sso.introspect(`token-${i}`);
    expect((sso as unknown as { cache: { size: number } }).cache.size).toBeLessThanOrEqual(5);
  });
});
