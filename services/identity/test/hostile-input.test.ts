import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { signUp, startIdentity } from '../src/testing/index.js';
import { email } from './helpers.js';

/** Endpoints of this part of the service (credentials and wallet endpoints are swept by their own tests). */
const OURS = /^\/api\/(session|auth|org|service-clients)/;

describeEachDatabase('hostile input never gets a 5xx', (target) => {
  let svc: RunningService;
  let cookie: string;
  let operations: { method: string; path: string }[];
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
    ({ cookie } = await signUp(svc.url, {
      email: email('fuzz'),
      password: 'secret1',
      name: 'F',
      orgName: 'O',
    }));
    const doc = (await (await svc.fetch('/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    operations = Object.entries(doc.paths)
      .filter(([path]) => OURS.test(path))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => ({
          method: method.toUpperCase(),
          path: path.replace(/\{[^}]+\}/g, 'x'),
        })),
      );
  });

  it('covers every JSON endpoint of the part', () => {
    expect(operations.length).toBeGreaterThanOrEqual(19);
  });

  it('answers malformed, wrongly typed and oversized bodies with 4xx', async () => {
    const bodies = [
      '{"a":',
      '[]',
      'null',
      '"text"',
      '{"code":{"$gt":""}}',
      JSON.stringify({ email: 'x'.repeat(5000), role: 1, scopes: 'a', org_id: [] }),
    ];
    for (const { method, path } of operations) {
      if (method === 'GET') continue;
      for (const body of bodies) {
        const variants: Record<string, string>[] = [
          { 'content-type': 'application/json', cookie },
          { 'content-type': 'application/json' },
        ];
        for (const headers of variants) {
          const response = await svc.fetch(path, { method, headers, body });
          expect(response.status, `${method} ${path} ${body.slice(0, 20)}`).toBeLessThan(500);
        }
      }
    }
  });

  it('answers arbitrary JSON values and query strings with 4xx or success, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.jsonValue(),
        fc.string({ maxLength: 40 }),
        async (op, value, query) => {
          const init: RequestInit = {
            method: op.method,
            headers: { cookie, 'content-type': 'application/json' },
          };
          if (op.method !== 'GET') init.body = JSON.stringify(value);
          const response = await svc.fetch(
            `${op.path}?org_id=${encodeURIComponent(query)}&slug=${encodeURIComponent(query)}`,
            init,
          );
          return response.status < 500;
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers hostile form posts to the sign-in endpoints with 303, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/auth/login', '/api/auth/register', '/api/auth/2fa'),
        fc.dictionary(
          fc.constantFrom('email', 'password', 'name', 'orgName', 'realm', 'redirect', 'aal', 'code'),
          fc.string({ maxLength: 300 }),
        ),
        async (path, fields) => {
          const response = await svc.fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(fields).toString(),
            redirect: 'manual',
          });
          return response.status === 303;
        },
      ),
      { numRuns: 60 },
    );
  });
});
