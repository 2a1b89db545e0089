/**
 * The OpenAPI document every service publishes, completed by the platform: the
 * security schemes an operation names, the guard's and the validator's refusals,
 * examples derived from the schema where a route gives none; and Redocly, an
 * independent validator, accepting it with every example checked against its schema.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { defineErrors } from '../errors.js';
import { buildService } from '../service.js';
import { tempDir } from '../testing/index.js';
import { createRoute, z } from './index.js';
import { access, errorResponses, jsonBody, jsonResponse } from './openapi.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const thingErrors = defineErrors('openapi-test', {
  thing_not_found: { status: 404, message: 'No thing has that id.' },
});

const thing = z.object({
  id: z.string().min(8),
  owner: z.email(),
  kind: z.enum(['lamp', 'chair']),
  size: z.number().int().min(3).max(9),
  createdAt: z.iso.datetime(),
  retiredAt: z.string().nullable(),
  tags: z.array(z.string().max(5)).min(2),
  extra: z.record(z.string(), z.unknown()),
  home: z.url().optional(),
});

const getThing = createRoute({
  method: 'get',
  path: '/api/things/{id}',
  summary: 'A thing',
  security: access.sessionOrServiceToken('things:read'),
  request: {
    params: z.object({ id: z.string().min(8).max(40) }),
    query: z.object({ limit: z.coerce.number().int().min(1).max(100).optional() }),
  },
  responses: { 200: jsonResponse('The thing', thing), ...errorResponses(thingErrors.thing_not_found) },
});

const makeThing = createRoute({
  method: 'post',
  path: '/api/things',
  summary: 'Make a thing',
  security: access.session,
  request: { body: jsonBody(z.object({ kind: z.enum(['lamp', 'chair']) }), { example: { kind: 'chair' } }) },
  responses: { 201: jsonResponse('Made', z.object({ id: z.string() }), { id: 'thing-0001' }) },
});

const ownHook = createRoute({
  method: 'post',
  path: '/api/own-hook',
  summary: 'Refuses bad input with its own code',
  security: access.public,
  'x-input-error': 'thing_invalid',
  request: { body: jsonBody(z.object({ name: z.string() }), { example: { name: 'x' } }) },
  responses: { 200: jsonResponse('Done', z.object({ ok: z.literal(true) }), { ok: true }) },
});

const publicInfo = createRoute({
  method: 'get',
  path: '/api/public/info',
  summary: 'Public information',
  security: access.public,
  responses: { 200: jsonResponse('Info', z.object({ name: z.string() })) },
});

const relay = createRoute({
  method: 'post',
  path: '/api/relay',
  summary: 'Relay something',
  security: access.relayer,
  responses: { 202: jsonResponse('Accepted', z.object({ ok: z.literal(true) })) },
});

// A parsed JSON document, read field by field as the assertions need.
// biome-ignore lint/suspicious/noExplicitAny: the document is whatever the service published
type Json = Record<string, any>;
let document: Json;
let docsPage: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const database = await openDatabase({ service: 'sample', dataDir: tempDir() });
  const built = await buildService(
    {
      name: 'orchestration',
      description: 'OpenAPI test service.',
      migrations: {},
      setup(app) {
        app.openapi(getThing, (c) => c.json({} as never, 200));
        app.openapi(makeThing, (c) => c.json({ id: 'x' }, 201));
        app.openapi(publicInfo, (c) => c.json({ name: 'x' }, 200));
        app.openapi(ownHook, (c) => c.json({ ok: true as const }, 200));
        app.openapi(relay, (c) => c.json({ ok: true as const }, 202));
      },
    },
    { database, env: { XV_LOG_LEVEL: 'silent', XV_DATA_DIR: tempDir() } },
  );
  close = async () => {
    await built.close();
    await database.close();
  };
  document = await (await built.app.request('/openapi.json')).json();
  docsPage = await (await built.app.request('/docs')).text();
});
afterAll(() => close());

const exampleCodes = (response: Json | undefined) =>
  Object.keys(response?.content?.['application/json']?.examples ?? {}).sort();

describe('the completed OpenAPI document', () => {
  it('declares the security schemes its operations use, and only those', () => {
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'relayerToken',
      'serviceToken',
      'session',
    ]);
    expect(document.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'xv_session',
    });
    expect(document.components.schemas.Error).toBeDefined();
  });

  it("adds the guard's and the validator's refusals to a secured operation with input", () => {
    const responses = document.paths['/api/things/{id}'].get.responses;
    expect(exampleCodes(responses['401'])).toEqual(['invalid_token', 'unauthenticated']);
    expect(exampleCodes(responses['403'])).toEqual(['insufficient_scope']);
    expect(exampleCodes(responses['400'])).toEqual(['invalid_request']);
    expect(exampleCodes(responses['404'])).toEqual(['thing_not_found']);
    expect(responses['404'].content['application/json'].examples.thing_not_found.value).toEqual({
      ok: false,
      error: 'thing_not_found',
      message: 'No thing has that id.',
    });
    expect(responses['413']).toBeUndefined();
  });

  it('gives a session-only operation with a body no token refusals, and a body its 400 and 413', () => {
    const responses = document.paths['/api/things'].post.responses;
    expect(exampleCodes(responses['401'])).toEqual(['unauthenticated']);
    expect(responses['403']).toBeUndefined();
    expect(exampleCodes(responses['400'])).toEqual(['invalid_json', 'invalid_request']);
    expect(exampleCodes(responses['413'])).toEqual(['payload_too_large']);
  });

  it('adds no refusal to a public operation without input, nor a guard refusal to another credential', () => {
    expect(Object.keys(document.paths['/api/public/info'].get.responses)).toEqual(['200']);
    expect(Object.keys(document.paths['/api/relay'].post.responses)).toEqual(['202']);
  });

  it('leaves invalid_request out of an operation whose hook answers with its own code', () => {
    expect(exampleCodes(document.paths['/api/own-hook'].post.responses['400'])).toEqual(['invalid_json']);
  });

  it('keeps written examples and derives the others from the schema', () => {
    const make = document.paths['/api/things'].post;
    expect(make.requestBody.content['application/json'].example).toEqual({ kind: 'chair' });
    expect(make.responses['201'].content['application/json'].example).toEqual({ id: 'thing-0001' });
    const derived =
      document.paths['/api/things/{id}'].get.responses['200'].content['application/json'].example;
    expect(derived).toMatchObject({
      owner: 'ada@example.com',
      kind: 'lamp',
      size: 3,
      retiredAt: 'retiredAt-example',
    });
    expect(derived.tags).toHaveLength(2);
    const id = document.paths['/api/things/{id}'].get.parameters.find((p: Json) => p.name === 'id');
    expect(id.example.length).toBeGreaterThanOrEqual(8);
  });

  it('names every operation uniquely', () => {
    const ids = Object.values(document.paths as Record<string, Record<string, Json>>).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('getApiThingsId');
  });

  it('is accepted by Redocly, every example valid against its schema, and refused once one is not', () => {
    const lint = (doc: Json) => {
      const file = join(tempDir('xv-openapi-'), 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      return spawnSync(
        process.execPath,
        [
          join(root, 'node_modules/@redocly/cli/bin/cli.js'),
          'lint',
          `--config=${join(root, 'redocly.yaml')}`,
          file,
        ],
        {
          encoding: 'utf8',
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      );
    };
    const accepted = lint(document);
    expect(accepted.status, accepted.stdout + accepted.stderr).toBe(0);
    const broken = structuredClone(document);
    broken.paths['/api/things/{id}'].get.responses['200'].content['application/json'].example.size = 42;
    const refused = lint(broken);
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('no-invalid-media-type-examples');
  }, 30_000);
});

describe('/docs', () => {
  it('shows who may call, an example request and every response with its examples, without a script', () => {
    expect(docsPage).toContain('Who may call');
    expect(docsPage).toContain('Signed-in session');
    expect(docsPage).toContain('Service token with scope things:read');
    expect(docsPage).toContain('Anyone: no credential needed');
    expect(docsPage).toMatch(/GET \/api\/things\/[^?\s]+\?limit=1 HTTP\/1\.1/);
    expect(docsPage).toContain('Cookie: xv_session=…');
    expect(docsPage).toContain('<code>thing_not_found</code>: No thing has that id.');
    expect(docsPage).toContain('&quot;kind&quot;: &quot;chair&quot;');
    expect(docsPage).not.toMatch(/<script/i);
  });
});
