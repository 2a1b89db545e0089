import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SsoClient } from '../http/sso.js';
import type { IdentitySession } from './principals.js';
import { RevocationWatch } from './revocations.js';

/**
 * A stand-in for identity: `GET /api/session` answers from `sessions` and counts its
 * calls; `GET /api/revocations/epoch?after=N` is a long-poll on `epoch`.
 */
let server: Server;
let identityUrl: string;
let sessionCalls = 0;
let epoch = 7;
let epochDown = false;
const sessions = new Map<string, IdentitySession>();
const waiting = new Set<ServerResponse>();

function bump() {
  epoch++;
  for (const res of waiting) res.end(JSON.stringify({ epoch }));
  waiting.clear();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/revocations/epoch') {
      if (epochDown) return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      const after = url.searchParams.get('after');
      if (after === null || Number(after) !== epoch) return void res.end(JSON.stringify({ epoch }));
      waiting.add(res);
      res.on('close', () => waiting.delete(res));
      return;
    }
    sessionCalls++;
    const token = /xv_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    const session = sessions.get(token);
    res.writeHead(session ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(session ?? { authenticated: false }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  identityUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  for (const res of waiting) res.end(JSON.stringify({ epoch }));
  return new Promise<void>((r) => server.close(() => r()));
});

const alice: IdentitySession = {
  authenticated: true,
  realmId: 'default',
  user: { id: 'usr_a', email: 'a@example.com', name: 'Alice', avatar_color: '#123456' },
  memberships: [{ org_id: 'org_a', org_name: 'A', role: 'member', permissions: [] }],
  amr: ['pwd'],
  aal: 'AAL1',
};

async function until(condition: () => boolean, withinMs = 1000) {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('revocation watch', () => {
  const watches: RevocationWatch[] = [];
  const startWatch = () => {
    const watch = new RevocationWatch({ identityUrl, maxRetryMs: 100 });
    watches.push(watch);
    watch.start();
    return watch;
  };
  afterEach(() => {
    for (const watch of watches.splice(0)) watch.stop();
    epochDown = false;
    sessions.clear();
    sessionCalls = 0;
  });

  it('a session cached before a removal is not served after identity reports the revocation', async () => {
    const watch = startWatch();
    const sso = new SsoClient({ identityUrl, cacheTtlMs: 60_000, revocations: watch });
    await until(() => watch.trusted);
    sessions.set('s1', alice);
    expect((await sso.introspect('s1'))?.memberships).toHaveLength(1);
    sessions.set('s1', { ...alice, memberships: [] });
    expect((await sso.introspect('s1'))?.memberships).toHaveLength(1); // cached, as before
    const before = watch.current;
    bump();
    await until(() => watch.current !== before);
    expect((await sso.introspect('s1'))?.memberships).toHaveLength(0);
  });

  it('caches nothing while the watch cannot reach identity: every check asks it (fail closed)', async () => {
    epochDown = true;
    const watch = startWatch();
    const sso = new SsoClient({ identityUrl, cacheTtlMs: 60_000, revocations: watch });
    sessions.set('s2', alice);
    await sso.introspect('s2');
    await sso.introspect('s2');
    expect(watch.trusted).toBe(false);
    expect(sessionCalls).toBe(2);

    epochDown = false;
    await until(() => watch.trusted, 2000);
    await sso.introspect('s2');
    await sso.introspect('s2');
    expect(sessionCalls).toBe(3);
  });

  it('stops its long-poll when stopped', async () => {
    const watch = startWatch();
    await until(() => watch.trusted);
    await until(() => waiting.size > 0);
    watch.stop();
    expect(watch.trusted).toBe(false);
    await until(() => waiting.size === 0);
  });
});
