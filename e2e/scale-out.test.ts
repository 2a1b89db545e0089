/**
 * Scale-out: two instances of every service on one PostgreSQL database, each
 * service behind a round-robin balancer whose address is the service's public URL
 * (`XV_<KEY>_URL`), so browsers, machines and the services themselves all go
 * through it. Every secret comes from the environment, as it must on separate
 * machines. What one instance writes, the other must honour: sessions and their
 * end, rate limits, idempotent workflow runs, an agent session's turns, approved
 * knowledge, issuer keys and seals, and the relayer's nonces.
 *
 * Runs only on the PostgreSQL pass (`XV_TEST_DATABASE_URL`): SQLite is one file on
 * one machine, and its rate limits live in each process's memory.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceClient, createUser, signIn, signUp } from '@xv/identity/testing';
import { SERVICE_NAMES, SERVICES, type ServiceName } from '@xv/platform';
import { answer, testDatabaseTargets } from '@xv/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, startPlatform } from './support/platform.js';
import { BACKEND_HEADER, type RoundRobinProxy, startProxy } from './support/proxy.js';

const databaseUrl = process.env.XV_TEST_DATABASE_URL;
const onPostgres = Boolean(databaseUrl) && testDatabaseTargets().some((t) => t.dialect === 'postgres');

/** The documented cache times a logout has to wait out on other instances. */
const IDENTITY_SESSION_CACHE_MS = 2000; // XV_IDENTITY_SESSION_CACHE_MS default
const SSO_CLIENT_CACHE_MS = 3000; // SsoClient default in @xv/platform
/** How soon a revocation reaches every instance of every service (the revocation watch in @xv/platform). */
const REVOCATION_MS = 1000;
const STATUS_CACHE_MS = 1000; // identity's cache of a status list's revoked slots
const LEADS_PER_MINUTE = 6;
const PASSWORD = 'correct horse battery';

interface CounterServer {
  url: string;
  port: number;
  /** Bodies of the POSTs received, in order. */
  received: unknown[];
  close(): Promise<void>;
}

/** The outside system a workflow calls: it counts what it is told, and answers slowly so duplicates overlap. */
async function startCounter(delayMs: number): Promise<CounterServer> {
  const received: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push(JSON.parse(body || 'null'));
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, seen: received.length }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(onPostgres)(
  'two instances of every service on one PostgreSQL, behind round-robin balancers',
  () => {
    let platform: Platform;
    const proxies = {} as Record<ServiceName, RoundRobinProxy>;
    let counter: CounterServer;
    let workflowsDir: string;
    let admin: { cookie: string; orgId: string };

    interface CallOptions extends RequestInit {
      /** Send the request to this instance (through the balancer); default: round robin. */
      instance?: number;
      cookie?: string;
      json?: unknown;
    }

    /** A request to `service` through its balancer, as a client of the platform makes it. */
    function call(service: ServiceName, path: string, options: CallOptions = {}): Promise<Response> {
      const { instance, cookie, json, ...init } = options;
      const headers = new Headers(init.headers);
      if (instance !== undefined) headers.set(BACKEND_HEADER, String(instance));
      if (cookie) headers.set('cookie', cookie);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${proxies[service].url}${path}`, {
        redirect: 'manual',
        signal: AbortSignal.timeout(60_000),
        ...init,
        ...(json !== undefined ? { method: init.method ?? 'POST', body: JSON.stringify(json) } : {}),
        headers,
      });
    }

    const servedBy = (response: Response) => Number(response.headers.get(BACKEND_HEADER));

    beforeAll(async () => {
      // The balancers listen first: their addresses are the services' public URLs.
      for (const service of SERVICE_NAMES) proxies[service] = await startProxy();
      counter = await startCounter(400);
      workflowsDir = mkdtempSync(join(tmpdir(), 'xv-scale-out-workflows-'));
      writeFileSync(
        join(workflowsDir, 'notify-order.json'),
        JSON.stringify({
          name: 'notify-order',
          description: 'Tells the order system about an order.',
          input: {
            type: 'object',
            properties: { orderId: { type: 'string', maxLength: 100 } },
            required: ['orderId'],
          },
          steps: [
            {
              id: 'notify',
              type: 'connector',
              connector: 'http',
              with: { method: 'POST', url: `${counter.url}/orders`, body: { orderId: '{{input.orderId}}' } },
            },
          ],
        }),
      );
      const publicUrls = Object.fromEntries(
        SERVICE_NAMES.map((service) => [`XV_${SERVICES[service].envKey}_URL`, proxies[service].url]),
      );
      platform = await startPlatform({
        databaseUrl: databaseUrl!,
        instances: { identity: 2, knowledge: 2, trust: 2, chain: 2, agent: 2, orchestration: 2 },
        env: {
          ...publicUrls,
          XV_TRUST_PROXY: '1',
          XV_DATABASE_POOL_SIZE: '4',
          // Secrets every instance must share, from the environment (never the generated files).
          XV_IDENTITY_KEK: randomBytes(32).toString('base64'),
          XV_TRUST_KEK: randomBytes(32).toString('hex'),
          XV_CHAIN_TOKEN: `scale-out-relayer-${randomBytes(16).toString('hex')}`,
          XV_INTERNAL_TOKEN: randomBytes(32).toString('hex'),
          XV_IDENTITY_REGISTRATIONS_PER_IP_HOUR: '1000',
          XV_ORCH_WF_PER_MINUTE: '1000',
          XV_ORCH_LEAD_PER_MINUTE: String(LEADS_PER_MINUTE),
          XV_AGENT_CHAT_PER_MINUTE: '1000',
          XV_WORKFLOWS_DIR: workflowsDir,
          XV_WF_HTTP_ALLOWED_HOSTS: `127.0.0.1:${counter.port}`,
        },
      });
      for (const service of SERVICE_NAMES) proxies[service].setBackends(platform.urls(service));

      const person = await signUp(proxies.identity.url, {
        email: `admin-${randomBytes(4).toString('hex')}@scale-out.test`,
        password: PASSWORD,
        name: 'Ada Admin',
        orgName: 'Scale-out Co',
      });
      admin = { cookie: person.cookie, orgId: person.session.memberships[0]!.org_id };
    }, 240_000);

    afterAll(async () => {
      await platform?.stop();
      for (const proxy of Object.values(proxies)) await proxy.close();
      await counter?.close();
      if (workflowsDir) rmSync(workflowsDir, { recursive: true, force: true });
    });

    it('serves every service from both of its instances through its balancer', async () => {
      for (const service of SERVICE_NAMES) {
        const answers = await Promise.all([0, 1, 2, 3].map(() => call(service, '/readyz')));
        expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
        expect(new Set(answers.map(servedBy))).toEqual(new Set([0, 1]));
      }
    });

    it('accepts a session signed in through one identity instance on the other, and on both instances of the knowledge base', async () => {
      const email = `pat-${randomBytes(4).toString('hex')}@scale-out.test`;
      const registered = await call('identity', '/api/auth/register', {
        instance: 0,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: PASSWORD, name: 'Pat', orgName: 'Pat & Co' }).toString(),
      });
      expect(registered.status).toBe(303);
      const setCookies = registered.headers.getSetCookie();
      const cookie = setCookies.find((c) => c.startsWith('xv_session='))?.split(';')[0];
      expect(cookie).toBeDefined();

      for (const instance of [1, 0]) {
        const session = await call('identity', '/api/session', { instance, cookie: cookie! });
        expect(session.status).toBe(200);
        expect((await session.json()).user.email).toBe(email);
        const tokens = await call('knowledge', '/api/tokens', { instance, cookie: cookie! });
        expect(tokens.status).toBe(200);
      }
    });

    it('ends a session logged out through one identity instance on every instance within the documented cache time', async () => {
      const email = `leaving-${randomBytes(4).toString('hex')}@scale-out.test`;
      await signUp(proxies.identity.url, { email, password: PASSWORD, name: 'Lee', orgName: 'Lee Ltd' });
      const { cookie } = await signIn(proxies.identity.url, email, PASSWORD);
      // Every instance has just seen the session valid (and may keep that answer in its cache).
      for (const instance of [0, 1]) {
        expect((await call('identity', '/api/session', { instance, cookie })).status).toBe(200);
        expect((await call('knowledge', '/api/tokens', { instance, cookie })).status).toBe(200);
      }

      const logout = await call('identity', '/api/auth/logout', { instance: 0, method: 'POST', cookie });
      expect(logout.status).toBe(303);
      expect(logout.headers.getSetCookie().some((c) => /^xv_session=;/.test(c))).toBe(true);
      expect((await call('identity', '/api/session', { instance: 0, cookie })).status).toBe(401);

      // Identity keeps answers XV_IDENTITY_SESSION_CACHE_MS, the other services' SSO client 3 s: after
      // the longer of the two, no instance may still accept it.
      await pause(Math.max(IDENTITY_SESSION_CACHE_MS, SSO_CLIENT_CACHE_MS) + 200);
      for (const instance of [0, 1]) {
        expect((await call('identity', '/api/session', { instance, cookie })).status).toBe(401);
        expect((await call('knowledge', '/api/tokens', { instance, cookie })).status).toBe(401);
      }
    });

    it('locks an account after failures counted on both identity instances, whichever instance gets the next attempt', async () => {
      const email = `locked-${randomBytes(4).toString('hex')}@scale-out.test`;
      await signUp(proxies.identity.url, { email, password: PASSWORD, name: 'Lou', orgName: 'Lou Inc' });
      const attempt = (instance: number, password: string) =>
        call('identity', '/api/auth/login', {
          instance,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email, password }).toString(),
        }).then((r) => r.headers.get('location'));

      // XV_IDENTITY_ACCOUNT_MAX_FAILURES (5) wrong passwords, spread over both instances.
      for (const instance of [0, 1, 0, 1, 0])
        expect(await attempt(instance, 'wrong password')).toBe('/login?error=1');
      // The right password is refused now, on either instance.
      expect(await attempt(1, PASSWORD)).toBe('/login?error=locked');
      expect(await attempt(0, PASSWORD)).toBe('/login?error=locked');
    });

    it('stops a service token revoked through one identity instance at once on the other, and at other services within a second', async () => {
      const { id, token } = await createServiceClient(proxies.identity.url, admin.cookie, {
        name: 'attester',
        scopes: ['attest:issue'],
        org_id: admin.orgId,
      });
      const bearer = { authorization: `Bearer ${token}` };
      const attest = (instance: number) =>
        call('trust', '/api/attestation', {
          instance,
          headers: bearer,
          json: {
            schema: 'https://schemas.scale-out.test/order',
            subject: 'did:web:shop.scale-out.test:orders:1',
            claim: { paid: true },
          },
        });
      expect(
        (await call('identity', '/api/service-clients/me', { instance: 1, headers: bearer })).status,
      ).toBe(200);
      for (const instance of [0, 1]) expect((await attest(instance)).status).toBe(200);

      const revoked = await call('identity', `/api/service-clients/${id}`, {
        instance: 0,
        method: 'DELETE',
        cookie: admin.cookie,
      });
      expect(revoked.status).toBe(200);
      expect(
        (await call('identity', '/api/service-clients/me', { instance: 1, headers: bearer })).status,
      ).toBe(401);
      const deadline = Date.now() + REVOCATION_MS;
      for (const instance of [0, 1]) {
        let refused = await attest(instance);
        while (refused.status === 200 && Date.now() < deadline) {
          await pause(50);
          refused = await attest(instance);
        }
        expect(refused.status).toBe(401);
        expect((await refused.json()).error).toBe('invalid_token');
      }
    });

    it('verifies on one identity instance a credential issued through the other, and sees its revocation there', async () => {
      const issued = await call('identity', '/api/did/issue', {
        instance: 0,
        cookie: admin.cookie,
        json: { type: 'IdentityCredential' },
      });
      expect(issued.status).toBe(200);
      const credential = await issued.json();
      const verify = (instance: number) =>
        call('identity', '/api/did/verify', { instance, json: { token: credential.sdjwt } }).then((r) =>
          r.json(),
        );
      expect(await verify(1)).toMatchObject({ valid: true });

      const revoked = await call('identity', '/api/did/revoke', {
        instance: 1,
        cookie: admin.cookie,
        json: { id: credential.id },
      });
      expect(revoked.status).toBe(200);
      // Each instance re-reads a list's revoked slots after at most a second.
      await pause(STATUS_CACHE_MS + 200);
      for (const instance of [0, 1])
        expect(await verify(instance)).toMatchObject({ valid: false, reason: 'revoked' });
    });

    it('counts a per-address limit once across both orchestration instances, whatever X-Forwarded-For the client sends', async () => {
      const lead = (i: number, instance?: number) =>
        call('orchestration', '/api/lead', {
          ...(instance === undefined ? {} : { instance }),
          // The balancer replaces this with the address it saw: a client cannot pick its own.
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
          json: { name: `Buyer ${i}`, email: `buyer${i}@northwind-traders.com`, company: 'Northwind' },
        });
      const accepted = [];
      for (let i = 0; i < LEADS_PER_MINUTE; i++) accepted.push(await lead(i));
      expect(accepted.map((r) => r.status)).toEqual(accepted.map(() => 200));
      expect(new Set(accepted.map(servedBy))).toEqual(new Set([0, 1]));

      for (const instance of [0, 1]) {
        const refused = await lead(100 + instance, instance);
        expect(refused.status).toBe(429);
        expect((await refused.json()).error).toBe('rate_limited');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    it('runs a workflow once when 50 requests with one idemKey arrive at both instances at once', async () => {
      const orderId = `order-${randomBytes(4).toString('hex')}`;
      const before = proxies.orchestration.served.slice();
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          call('orchestration', '/api/wf', {
            json: { workflow: 'notify-order', input: { orderId }, idemKey: orderId },
          }).then(async (r) => ({ status: r.status, body: await r.json() })),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const runIds = new Set(answers.map((a) => a.body.runId));
      expect(runIds.size).toBe(1);
      expect(answers.every((a) => a.body.status === 'done')).toBe(true);
      // Both instances took part, and the order system heard of the order exactly once.
      expect(proxies.orchestration.served.map((n, i) => n - before[i]!).every((n) => n > 0)).toBe(true);
      expect(counter.received.filter((b) => (b as { orderId?: string }).orderId === orderId)).toHaveLength(1);

      const [runId] = runIds;
      for (const instance of [0, 1]) {
        const run = await (await call('orchestration', `/api/wf?id=${runId}`, { instance })).json();
        expect(run.run.status).toBe('done');
        expect(run.steps).toEqual([
          expect.objectContaining({ step_id: 'notify', status: 'ok', attempts: 1 }),
        ]);
      }
    });

    it('answers the messages of one agent session one at a time across both instances, keeping its history consistent', async () => {
      const session = `scale-out-${randomBytes(12).toString('hex')}`;
      platform.model.reset();
      const turns = 8;
      for (let i = 0; i < turns; i++) platform.model.script(answer(`answer ${i}`, { delayMs: 5 }));
      const replies = await Promise.all(
        Array.from({ length: turns }, (_, i) =>
          call('agent', `/api/chat?session=${session}`, { json: { message: `question ${i}` } }).then(
            async (r) => ({
              status: r.status,
              instance: servedBy(r),
              text: await r.text(),
            }),
          ),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
      expect(new Set(replies.map((r) => r.instance))).toEqual(new Set([0, 1]));

      // The k-th model call saw the system prompt, every earlier turn complete, and its own question.
      const requests = platform.model.requests;
      expect(requests).toHaveLength(turns);
      requests.forEach((request, k) => {
        expect(request.messages).toHaveLength(1 + 2 * k + 1);
      });
      // Each reply is the answer the model gave to that very question.
      const answerTo = new Map(
        requests.map((r) => [r.messages.at(-1).content, (r.step as { text: string }).text]),
      );
      replies.forEach((reply, i) => {
        expect(reply.text).toBe(answerTo.get(`question ${i}`));
      });
      for (const instance of [0, 1]) {
        const state = await (await call('agent', `/api/state?session=${session}`, { instance })).json();
        expect(state.messages).toHaveLength(2 * turns);
        for (let i = 0; i < state.messages.length; i += 2) {
          const [question, reply] = [state.messages[i], state.messages[i + 1]];
          expect([question.role, reply.role]).toEqual(['user', 'assistant']);
          expect(reply.content).toBe(answerTo.get(question.content));
        }
      }
    });

    it('streams an agent answer through the balancer as it is written', async () => {
      platform.model.reset();
      const text = 'one two three four five';
      platform.model.script(answer(text, { chunks: 5, delayMs: 400 }));
      const response = await call('agent', `/api/chat?session=stream-${randomBytes(8).toString('hex')}`, {
        json: { message: 'Say five words.' },
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      const first = decoder.decode((await reader.read()).value);
      let rest = '';
      for (let part = await reader.read(); !part.done; part = await reader.read())
        rest += decoder.decode(part.value);
      expect(first.length).toBeGreaterThan(0);
      expect(first.length).toBeLessThan(text.length);
      expect(first + rest).toBe(text);
    });

    it('searches on one knowledge base instance what a reviewer approved on the other', async () => {
      const reviewer = await createUser(proxies.identity.url, admin.cookie, {
        email: `reviewer-${randomBytes(4).toString('hex')}@scale-out.test`,
        password: PASSWORD,
        name: 'Rae Reviewer',
        role: 'reviewer',
      });
      // The membership was added through one identity instance, which dropped its cached answer at
      // once; the other may serve its cached one for XV_IDENTITY_SESSION_CACHE_MS more.
      await pause(IDENTITY_SESSION_CACHE_MS + 200);
      for (const instance of [0, 1]) {
        const session = await (
          await call('identity', '/api/session', { instance, cookie: reviewer.cookie })
        ).json();
        expect(session.memberships.map((m: { org_id: string }) => m.org_id)).toContain(admin.orgId);
      }
      const created = await call('knowledge', '/api/tokens', {
        instance: 0,
        cookie: admin.cookie,
        json: { name: 'desktop', scopes: ['sync', 'ai:read'] },
      });
      expect(created.status).toBe(201);
      const { token } = await created.json();
      const bearer = { authorization: `Bearer ${token}` };

      const content = '# Returns\n\nCustomers may return a pallet within 45 days for a full refund.\n';
      const pushed = await call('knowledge', '/api/sync/push', {
        instance: 1,
        headers: bearer,
        json: {
          path: 'policies/returns.md',
          content,
          hash: createHash('sha256').update(content).digest('hex'),
        },
      });
      expect(pushed.status).toBe(200);
      const { docId } = await pushed.json();
      expect(
        (await call('knowledge', '/api/sync/submit', { instance: 0, headers: bearer, json: { docId } }))
          .status,
      ).toBe(200);
      const decided = await call('knowledge', '/api/review/decide', {
        instance: 1,
        cookie: reviewer.cookie,
        json: { docId, decision: 'approve' },
      });
      expect(decided.status).toBe(200);
      expect((await decided.json()).state).toBe('approved');

      for (const instance of [0, 1]) {
        const search = await call('knowledge', '/api/ai/search', {
          instance,
          headers: bearer,
          json: { query: 'How long may a pallet be returned?' },
        });
        expect(search.status).toBe(200);
        expect((await search.json()).hits[0]).toMatchObject({ docId });
      }
    });

    it('seals with one organization key when its first seals race on both trust instances, and verifies each seal on the other instance', async () => {
      const person = await signUp(proxies.identity.url, {
        email: `sealer-${randomBytes(4).toString('hex')}@scale-out.test`,
        password: PASSWORD,
        name: 'Sam Sealer',
        orgName: 'Sealing Partners',
      });
      const orgId = person.session.memberships[0]!.org_id;
      const seals = await Promise.all(
        [0, 1, 0, 1].map((instance, i) =>
          call('trust', '/api/seal', {
            instance,
            cookie: person.cookie,
            json: { modelId: 'scripted', output: { answer: `sealed ${i}` } },
          }).then(async (r) => ({ status: r.status, instance, receipt: await r.json() })),
        ),
      );
      expect(seals.map((s) => s.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(seals.map((s) => s.receipt.keyId)).size).toBe(1);
      const jwks = await (await call('trust', '/api/keys/jwks')).json();
      const orgKeys = jwks.keys.filter((k: { kid: string }) => k.kid === orgId);
      expect(orgKeys).toHaveLength(1);
      expect(orgKeys[0]).toMatchObject({ status: 'active', keyId: seals[0]!.receipt.keyId });

      for (const seal of seals) {
        const other = 1 - seal.instance;
        const byId = await call('trust', `/api/verify?receiptId=${seal.receipt.receiptId}`, {
          instance: other,
        });
        expect(await byId.json()).toMatchObject({ status: 'valid', integrity: 'intact', issuer: { orgId } });
        const byProof = await call('trust', '/api/verify', {
          instance: other,
          json: { proof: JSON.stringify(seal.receipt.manifest) },
        });
        expect(await byProof.json()).toMatchObject({ status: 'valid', integrity: 'intact' });
      }

      // Anchoring one receipt through both trust instances at once: one transaction, found on chain.
      const { receiptId } = seals[0]!.receipt;
      const anchors = await Promise.all(
        [0, 1].map((instance) =>
          call('trust', '/api/anchor', { instance, json: { receiptId } }).then(async (r) => ({
            status: r.status,
            body: await r.json(),
          })),
        ),
      );
      expect(anchors.map((a) => a.status)).toEqual([200, 200]);
      expect(anchors[1]!.body.txHash).toBe(anchors[0]!.body.txHash);
      const verified = await eventually(async () => {
        const body = await (await call('trust', `/api/verify?receiptId=${receiptId}`)).json();
        return body.anchor?.onChain ? body : undefined;
      }, 'the anchor on chain');
      expect(verified.anchor.txHash).toBe(anchors[0]!.body.txHash);
    });

    it('hands out every nonce of the relayer key once when both relayer instances anchor at once', async () => {
      const relayer = { authorization: `Bearer ${platform.env.XV_CHAIN_TOKEN}` };
      const hashes = Array.from({ length: 12 }, () => `0x${randomBytes(32).toString('hex')}`);
      const shared = hashes[0]!;
      // Twelve different hashes over both instances, and the first one a second time on each.
      const requests = [
        ...hashes.map((hash, i) => ({ hash, instance: i % 2 })),
        { hash: shared, instance: 0 },
        { hash: shared, instance: 1 },
      ];
      const answers = await Promise.all(
        requests.map(({ hash, instance }) =>
          call('chain', '/api/anchors', { instance, headers: relayer, json: { hash } }).then(async (r) => ({
            status: r.status,
            body: await r.json(),
          })),
        ),
      );
      expect(answers.every((a) => a.status === 200 || a.status === 201)).toBe(true);
      const byHash = new Map<string, Set<string>>();
      for (const { body } of answers)
        byHash.set(body.ref, (byHash.get(body.ref) ?? new Set()).add(body.txHash));
      expect([...byHash.values()].every((txs) => txs.size === 1)).toBe(true);
      expect(byHash.size).toBe(12);
      const nonces = new Set(answers.map((a) => a.body.nonce));
      expect(nonces.size).toBe(12);

      // Every anchor is mined: no nonce was skipped or taken twice (a gap would hold back the ones after it).
      const confirmed = await eventually(async () => {
        const states = await Promise.all(
          hashes.map(
            async (hash) =>
              (await (await call('chain', `/api/anchors/${hash}`, { headers: relayer })).json()).status,
          ),
        );
        return states.every((s) => s === 'confirmed') ? states : undefined;
      }, 'every anchor confirmed');
      expect(confirmed).toHaveLength(12);
    });

    it('loses no request while each identity instance in turn leaves the balancer, restarts and comes back', async () => {
      const statuses: number[] = [];
      let rolling = true;
      const traffic = (async () => {
        // Sessions checked at identity, and through identity by the knowledge base, the whole time.
        for (let round = 0; rolling && round < 2000; round++) {
          const answers = await Promise.all([
            call('identity', '/api/session', { cookie: admin.cookie }),
            call('knowledge', '/api/tokens', { cookie: admin.cookie }),
          ]);
          statuses.push(...answers.map((r) => r.status));
        }
      })();
      const urls = platform.urls('identity');
      for (const index of [0, 1]) {
        proxies.identity.setBackends(urls.filter((_, i) => i !== index));
        await platform.restart('identity', index); // SIGTERM, then a new process, ready again
        proxies.identity.setBackends(urls);
      }
      rolling = false;
      await traffic;
      expect(statuses.length).toBeGreaterThan(10);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    });

    it('finishes an answer still streaming from an agent instance that is stopped after leaving the balancer', async () => {
      platform.model.reset();
      const text = 'a slow answer still arrives whole';
      platform.model.script(answer(text, { chunks: 6, delayMs: 400 }));
      const session = `draining-${randomBytes(12).toString('hex')}`;
      const urls = platform.urls('agent');
      const inFlight = call('agent', `/api/chat?session=${session}`, {
        instance: 0,
        json: { message: 'Take your time.' },
      }).then(async (r) => ({ status: r.status, text: await r.text() }));
      await eventually(async () => (platform.model.requests.length > 0 ? true : undefined), 'the model call');

      proxies.agent.setBackends([urls[1]!]);
      const restarted = platform.restart('agent', 0); // SIGTERM while the answer streams
      expect(await inFlight).toEqual({ status: 200, text });
      await restarted;
      proxies.agent.setBackends(urls);
      const state = await (await call('agent', `/api/state?session=${session}`, { instance: 1 })).json();
      expect(state.messages.map((m: { content: string }) => m.content)).toEqual(['Take your time.', text]);
    });

    it('needs no file another instance wrote: every secret came from the environment', () => {
      for (const generated of ['identity-issuer.kek', 'trust-kek', 'chain-token', 'internal-token'])
        expect(existsSync(join(platform.dataDir, generated))).toBe(false);
    });

    it('refuses to start an identity instance whose XV_IDENTITY_KEK differs from the others', async () => {
      const shared = platform.env.XV_IDENTITY_KEK!;
      await expect(
        platform.restart('identity', 1, { XV_IDENTITY_KEK: randomBytes(32).toString('base64') }),
      ).rejects.toThrow(/key-encryption key cannot open the stored issuer key/);
      // With the shared key it starts again and serves the same sessions.
      await platform.restart('identity', 1, { XV_IDENTITY_KEK: shared });
      expect((await call('identity', '/api/session', { instance: 1, cookie: admin.cookie })).status).toBe(
        200,
      );
    });
  },
);
