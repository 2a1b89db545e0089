/**
 * Hostile input everywhere: a property-based sweep (fast-check) over every JSON
 * endpoint of every service, generated from the `/openapi.json` each running
 * service publishes, plus the protocol endpoints outside it (identity's forms,
 * OpenID4VCI, MCP). Each endpoint gets wrong types, missing fields, extra fields,
 * huge strings under and over the 1 MiB limit, 10,000-deep nesting, invalid
 * UTF-8, wrong and lying content types and malformed JSON, anonymously and with
 * a signed-up person's session cookie or bearer token, so the validation behind
 * authentication is reached too. Every answer must be a 4xx in the endpoint's
 * error format, within a timeout, and a batch of rejected requests must leave
 * the service's database exactly as it was.
 */
import { randomBytes } from 'node:crypto';
import { createServiceClient, signUp } from '@xv/identity/testing';
import type { ServiceName } from '@xv/platform';
import { testDatabaseTargets } from '@xv/platform/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CaseKind,
  deepFreeFormRequests,
  describeRequest,
  type HostileRequest,
  hostileKinds,
  type OpenApiDocument,
  type Operation,
  operationName,
  sweepableOperations,
  wellFormedHostileRequests,
} from './support/openapi-cases.js';
import { freeFormProperties, type JsonSchema } from './support/openapi-schema.js';
import {
  type Bookkeeping,
  openServiceDatabase,
  type Snapshot,
  snapshot,
  snapshotChanges,
} from './support/openapi-snapshot.js';
import { type Platform, startPlatform } from './support/platform.js';

const REQUEST_TIMEOUT_MS = 20_000;
const PARALLEL_OPERATIONS = 3;
/** `XV_SWEEP_SCALE=10` multiplies every run count, for a deeper search by hand (CI keeps 1). */
const SCALE = Math.max(1, Number(process.env.XV_SWEEP_SCALE ?? 1) || 1);
const WELL_FORMED_RUNS = 20 * SCALE;
const SERVICES: ServiceName[] = ['identity', 'knowledge', 'trust', 'chain', 'agent', 'orchestration'];

/** The error body an endpoint answers with. */
type ErrorFormat =
  /** `{ok:false, error, message}`: the platform's, for every JSON endpoint unless listed below. */
  | 'platform'
  /** `{error, error_description}` (OAuth / OpenID4VCI, contract.md); the platform's own 404/413 may come first. */
  | 'oauth'
  /** A JSON-RPC error object (`{jsonrpc:"2.0", error:{code, message}}`), what MCP clients parse; the platform's
   * format for failures before the MCP handler (authentication, body limit). */
  | 'json-rpc'
  /** The spec's browser forms answer 303 to a page with `?error=…`; the platform's format for 413/404. */
  | 'form-redirect';

/**
 * Endpoints outside `/openapi.json` that still take input (forms and protocols), described
 * here by hand in the same schema language. Left out on purpose: `POST /api/auth/logout`
 * (it takes no input; any request carrying the cookie is a valid logout) and
 * `POST /api/oid4vci/nonce` (no input; every request gets a nonce).
 */
const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
const PROTOCOL_ENDPOINTS: {
  service: ServiceName;
  method: string;
  path: string;
  encoding: 'json' | 'form';
  body: JsonSchema;
  format: ErrorFormat;
  headers?: Record<string, string>;
}[] = [
  {
    service: 'identity',
    method: 'POST',
    path: '/api/auth/register',
    encoding: 'form',
    body: {
      type: 'object',
      properties: {
        email: str({ format: 'email', maxLength: 254 }),
        password: str({ minLength: 6, maxLength: 1024 }),
        name: str({ minLength: 1, maxLength: 200 }),
        orgName: str({ minLength: 1, maxLength: 200 }),
      },
      required: ['email', 'password', 'name', 'orgName'],
    },
    format: 'form-redirect',
  },
  {
    service: 'identity',
    method: 'POST',
    path: '/api/auth/login',
    encoding: 'form',
    // No e-mail of the sweep is ever registered, so even a well-formed login is refused.
    body: {
      type: 'object',
      properties: {
        email: str({ maxLength: 254 }),
        password: str({ maxLength: 1024 }),
        realm: str({ maxLength: 64 }),
      },
      required: ['email', 'password'],
    },
    format: 'form-redirect',
  },
  {
    service: 'identity',
    method: 'POST',
    path: '/api/auth/2fa',
    encoding: 'form',
    // Without an `xv_mfa` challenge every code is refused.
    body: { type: 'object', properties: { code: str({ minLength: 1, maxLength: 64 }) }, required: ['code'] },
    format: 'form-redirect',
  },
  {
    service: 'identity',
    method: 'POST',
    path: '/api/oid4vci/token',
    encoding: 'json',
    body: {
      type: 'object',
      properties: {
        grant_type: str({ enum: ['urn:ietf:params:oauth:grant-type:pre-authorized_code'] }),
        'pre-authorized_code': str({ minLength: 1, maxLength: 512 }),
        tx_code: str({ maxLength: 64 }),
      },
      required: ['grant_type', 'pre-authorized_code'],
    },
    format: 'oauth',
  },
  {
    service: 'identity',
    method: 'POST',
    path: '/api/oid4vci/credential',
    encoding: 'json',
    body: {
      type: 'object',
      properties: {
        credential_configuration_id: str({ enum: ['IdentityCredential', 'MembershipCredential'] }),
        proof: {
          type: 'object',
          properties: { proof_type: str({ enum: ['jwt'] }), jwt: str({ minLength: 1 }) },
          required: ['proof_type', 'jwt'],
        },
      },
      required: ['credential_configuration_id', 'proof'],
    },
    format: 'oauth',
  },
  {
    service: 'knowledge',
    method: 'POST',
    path: '/mcp',
    encoding: 'json',
    headers: { accept: 'application/json, text/event-stream' },
    body: {
      type: 'object',
      properties: {
        jsonrpc: str({ enum: ['2.0'] }),
        id: { type: 'integer', minimum: 1, maximum: 1000 },
        method: str({ enum: ['initialize', 'tools/list'] }),
      },
      required: ['jsonrpc', 'method', 'id'],
    },
    format: 'json-rpc',
  },
];

/**
 * 5xx answers the spec itself gives for a well-formed request, with the reason. The sweep
 * scripts no model answer, so every model call fails (the scripted model answers 500).
 */
const SPEC_SERVER_ERRORS: Record<string, { statuses: number[]; reason: string }> = {
  'agent POST /api/chat': {
    statuses: [502, 503],
    reason: 'model_failed / ai_unavailable when the model fails',
  },
  'orchestration POST /api/route': { statuses: [502, 503], reason: 'all_failed / ai_unavailable (spec)' },
  'orchestration POST /api/wf': { statuses: [502], reason: 'workflow_failed when an AI step fails for good' },
};

/** Endpoints whose content type is not checked on purpose, with the reason. */
const CONTENT_TYPE_AGNOSTIC: Record<string, string> = {
  // Spec: "400 ... body is not JSON"; the agent parses any body as JSON whatever its content type.
  'agent POST /api/chat': 'the spec asks for 400 on any body that is not JSON, whatever its content type',
  // OAuth token requests are form-encoded by most wallets, JSON by some: both are read.
  'identity POST /api/oid4vci/token': 'takes form-encoded and JSON token requests',
  'identity POST /api/oid4vci/credential': 'reads the body as JSON whatever its content type (OpenID4VCI)',
};

/**
 * MCP speaks JSON-RPC inside HTTP: a well-formed envelope with a bad method or bad
 * arguments is a 200 carrying a JSON-RPC error, by the protocol. Only what breaks the
 * HTTP layer is a 4xx there.
 */
const TRANSPORT_KINDS = new Set([
  'no body',
  'wrong content type',
  'lying content type',
  'malformed JSON',
  'body over the 1 MiB limit',
]);

/**
 * What a rejected request may still change, per service. `rate_limits` is the
 * PostgreSQL store of every rate limiter (a refused login spends a point by design).
 */
const BOOKKEEPING: Record<ServiceName, Bookkeeping[]> = {
  identity: [
    {
      table: 'rate_limits',
      reason: 'rate-limit counters: a refused login or 2FA code counts against the address',
    },
    {
      table: 'sessions',
      columns: ['last_seen_at'],
      reason: 'a request carrying the session cookie slides the idle timeout (written at most once a minute)',
    },
    {
      table: 'service_clients',
      columns: ['last_used_at'],
      reason: 'a request carrying the service token records when the token was last used',
    },
  ],
  knowledge: [
    { table: 'rate_limits', reason: 'rate-limit counters' },
    {
      table: 'access_tokens',
      columns: ['last_used_at'],
      reason: 'a request carrying the personal access token records when the token was last used',
    },
  ],
  trust: [{ table: 'rate_limits', reason: 'rate-limit counters' }],
  chain: [{ table: 'rate_limits', reason: 'rate-limit counters' }],
  agent: [{ table: 'rate_limits', reason: 'rate-limit counters: a chat message counts before it is read' }],
  orchestration: [
    { table: 'rate_limits', reason: 'rate-limit counters: every request counts before it is read' },
  ],
};

interface Credential {
  name: string;
  headers: Record<string, string>;
}

interface Sweep {
  operation: Operation;
  format: ErrorFormat;
  statuses: Map<number, number>;
}

function formatOf(service: ServiceName, op: Operation): ErrorFormat {
  return (
    PROTOCOL_ENDPOINTS.find((p) => p.service === service && p.method === op.method && p.path === op.path)
      ?.format ?? 'platform'
  );
}

async function send(base: string, request: HostileRequest, credential: Credential) {
  const headers = { ...credential.headers, ...request.headers };
  try {
    const response = await fetch(`${base}${request.target}`, {
      method: request.method,
      headers,
      ...(request.body ? { body: new Uint8Array(request.body) } : {}),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return {
      status: response.status,
      location: response.headers.get('location'),
      text: await response.text(),
    };
  } catch (error) {
    const reason =
      error instanceof Error ? `${error.name}: ${error.message} ${String(error.cause ?? '')}` : error;
    throw new Error(`no answer (${reason}) with ${credential.name} to ${describeRequest(request)}`);
  }
}

/** Why an answer to a rejected request is wrong, or undefined when it is right. */
function judge(format: ErrorFormat, answer: { status: number; location: string | null; text: string }) {
  if (format === 'form-redirect' && answer.status === 303) {
    return answer.location && /[?&]error=/.test(answer.location)
      ? undefined
      : `303 without an error to ${answer.location}`;
  }
  if (answer.status < 400 || answer.status > 499) return `status ${answer.status}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} whose body is not JSON`;
  }
  const platform = body.ok === false && typeof body.error === 'string' && typeof body.message === 'string';
  if (platform) return undefined;
  if (format === 'oauth' && typeof body.error === 'string' && typeof body.error_description === 'string')
    return undefined;
  const rpcError = body.error as { code?: unknown; message?: unknown } | undefined;
  if (
    format === 'json-rpc' &&
    body.jsonrpc === '2.0' &&
    typeof rpcError?.code === 'number' &&
    typeof rpcError.message === 'string'
  )
    return undefined;
  return `a ${answer.status} not in the ${format} error format`;
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

for (const target of testDatabaseTargets()) {
  describe(`hostile input to every JSON endpoint [${target.dialect}]`, () => {
    const databaseUrl = target.dialect === 'postgres' ? process.env.XV_TEST_DATABASE_URL : undefined;
    let platform: Platform;
    const operations = new Map<ServiceName, Operation[]>();
    const credentials = new Map<ServiceName, Credential[]>();
    const sweeps = new Map<ServiceName, Sweep[]>();
    const snapshots = new Map<ServiceName, { before: Snapshot; after: Snapshot; ignored: string[] }>();
    /** Operations given well-formed hostile values: those above, and those with free-string parameters. */
    const wellFormedOperations = new Map<ServiceName, Operation[]>();
    /** Operations of the document with nothing to attack: no body and no constrained parameter. */
    const unswept = new Map<ServiceName, string[]>();

    beforeAll(async () => {
      platform = await startPlatform({
        ...(databaseUrl ? { databaseUrl } : {}),
        env: {
          // Rate limits are not what this sweep is about: keep them from masking validation.
          XV_IDENTITY_IP_MAX_FAILURES: '1000000',
          XV_IDENTITY_REGISTRATIONS_PER_IP_HOUR: '1000000',
          XV_AGENT_CHAT_PER_MINUTE: '1000000',
          XV_KB_PUBLIC_SEARCH_PER_MINUTE: '1000000',
          XV_ORCH_ROUTE_PER_MINUTE: '1000000',
          XV_ORCH_WF_PER_MINUTE: '1000000',
          XV_ORCH_LEAD_PER_MINUTE: '1000000',
          XV_ORCH_READ_PER_MINUTE: '1000000',
          XV_TRUST_SEAL_PER_MINUTE: '1000000',
          XV_TRUST_ATTEST_PER_MINUTE: '1000000',
          XV_TRUST_ANCHOR_PER_MINUTE: '1000000',
          XV_ORCH_ADMIN_TOKEN: randomBytes(24).toString('hex'),
        },
      });
      const identity = platform.url('identity');
      const person = await signUp(identity, {
        email: `sweep-${randomBytes(4).toString('hex')}@xv.test`,
        password: 'sweep-password-1',
        name: 'Sweep',
        orgName: 'Sweep Org',
      });
      const orgId = person.session.memberships[0]!.org_id;
      const serviceToken = await createServiceClient(identity, person.cookie, {
        name: 'sweep',
        scopes: ['did:issue'],
        org_id: orgId,
      });
      const pat = await fetch(`${platform.url('knowledge')}/api/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: person.cookie },
        body: JSON.stringify({ name: 'sweep', scopes: ['sync', 'ai:read'] }),
      });
      expect(pat.status).toBe(201);
      const { token: kbToken } = (await pat.json()) as { token: string };

      const anonymous: Credential = { name: 'no credentials', headers: {} };
      const cookie: Credential = { name: 'a session cookie', headers: { cookie: person.cookie } };
      const bearer = (name: string, token: string): Credential => ({
        name,
        headers: { authorization: `Bearer ${token}` },
      });
      credentials.set('identity', [anonymous, cookie, bearer('a service token', serviceToken.token)]);
      credentials.set('knowledge', [anonymous, cookie, bearer('a personal access token', kbToken)]);
      credentials.set('trust', [anonymous, cookie]);
      credentials.set('chain', [anonymous, bearer('the relayer token', platform.env.XV_CHAIN_TOKEN!)]);
      credentials.set('agent', [anonymous]);
      credentials.set('orchestration', [
        anonymous,
        bearer('the operator token', platform.env.XV_ORCH_ADMIN_TOKEN!),
      ]);

      for (const service of SERVICES) {
        const response = await fetch(`${platform.url(service)}/openapi.json`);
        const document = (await response.json()) as OpenApiDocument;
        const fromDocument = sweepableOperations(service, document);
        const protocol = PROTOCOL_ENDPOINTS.filter((p) => p.service === service).map(
          (p): Operation => ({
            service,
            method: p.method,
            path: p.path,
            parameters: [],
            body: p.body,
            encoding: p.encoding,
            ...(p.headers ? { headers: p.headers } : {}),
            resolve: (s) => s,
          }),
        );
        operations.set(service, [...fromDocument, ...protocol]);
        wellFormedOperations.set(service, [
          ...sweepableOperations(service, document, { anyParameter: true }),
          // Not MCP: a well-formed JSON-RPC envelope is answered 200 with a JSON-RPC result or error.
          ...protocol.filter((op) => formatOf(service, op) !== 'json-rpc'),
        ]);
        const swept = new Set(fromDocument.map(operationName));
        unswept.set(
          service,
          Object.entries(document.paths).flatMap(([path, methods]) =>
            Object.keys(methods)
              .map((method) => operationName({ method: method.toUpperCase(), path }))
              .filter((name) => !swept.has(name)),
          ),
        );
      }
    });

    afterAll(async () => {
      await platform?.stop();
    });

    for (const service of SERVICES) {
      it(`${service}: every operation answers hostile input with a 4xx in its error format, never a 5xx or a hang`, async () => {
        const base = platform.url(service);
        const database = await openServiceDatabase(platform, service, databaseUrl);
        const tables = new Set(await database.tables());
        const before = await snapshot(database, BOOKKEEPING[service]);
        const results: Sweep[] = [];
        const failures: string[] = [];
        const modes = credentials.get(service)!;
        await inParallel(operations.get(service)!, PARALLEL_OPERATIONS, async (op) => {
          const format = formatOf(service, op);
          const sweep: Sweep = { operation: op, format, statuses: new Map() };
          results.push(sweep);
          const kinds = hostileKinds(op, {
            contentTypeAgnostic: `${service} ${operationName(op)}` in CONTENT_TYPE_AGNOSTIC,
          }).filter((kind) => format !== 'json-rpc' || TRANSPORT_KINDS.has(kind.name));
          for (const kind of kinds) {
            const failure = await sweepKind(base, kind, modes, format, sweep);
            if (failure) failures.push(`${service} ${operationName(op)}: ${failure}`);
          }
        });
        const after = await snapshot(database, BOOKKEEPING[service]);
        await database.close();
        snapshots.set(service, {
          before,
          after,
          ignored: BOOKKEEPING[service]
            .filter((rule) => tables.has(rule.table))
            .map(
              (rule) => `${rule.table}${rule.columns ? `.${rule.columns.join(', ')}` : ''} (${rule.reason})`,
            ),
        });
        sweeps.set(service, results);
        report(service, results, unswept.get(service) ?? []);
        if (failures.length > 0)
          for (const instance of platform.instances.filter((i) => i.service === service))
            console.error(`--- ${service}#${instance.index}\n${instance.output.slice(-20).join('')}`);
        expect(failures).toEqual([]);
        expect(results.length).toBeGreaterThan(0);
      });

      it(`${service}: the rejected requests left its database unchanged (row counts and contents)`, () => {
        const taken = snapshots.get(service);
        expect(taken, 'the sweep ran').toBeDefined();
        expect(taken!.before.size).toBeGreaterThan(0);
        expect(snapshotChanges(taken!.before, taken!.after)).toEqual([]);
        console.log(
          `${service}: ${taken!.before.size} tables compared; ignored: ${taken!.ignored.join('; ') || 'nothing'}`,
        );
      });
    }

    // After the database checks: these requests may be accepted and write.
    for (const service of SERVICES) {
      it(`${service}: well-formed hostile values (injections, control characters, lone surrogates, boundary numbers) never cause a 5xx`, async () => {
        const base = platform.url(service);
        const modes = credentials.get(service)!;
        const failures: string[] = [];
        let sent = 0;
        const swept = wellFormedOperations.get(service)!;
        await inParallel(swept, PARALLEL_OPERATIONS, async (op) => {
          const format = formatOf(service, op);
          const allowed = SPEC_SERVER_ERRORS[`${service} ${operationName(op)}`]?.statuses ?? [];
          const result = await fc.check(
            fc.asyncProperty(
              wellFormedHostileRequests(op),
              fc.constantFrom(...modes),
              async (request, mode) => {
                const answer = await send(base, request, mode);
                sent++;
                const serverError = answer.status >= 500 && !allowed.includes(answer.status);
                const badError =
                  answer.status >= 400 && answer.status !== 303 && judge(format, { ...answer, status: 400 });
                if (serverError || badError)
                  throw new Error(
                    `${answer.status} with ${mode.name} to ${describeRequest(request)}: ${answer.text.slice(0, 300)}`,
                  );
              },
            ),
            { numRuns: WELL_FORMED_RUNS, endOnFailure: true },
          );
          if (result.failed)
            failures.push(
              `${service} ${operationName(op)} (seed ${result.seed}): ${String(result.errorInstance)}`,
            );
        });
        console.log(
          `${service}: ${sent} well-formed hostile requests to ${swept.map(operationName).join(', ')}`,
        );
        expect(failures).toEqual([]);
      });
    }

    it('10,000-deep values in free-form fields (seal output, attestation claim, …) never cause a 5xx', async () => {
      const failures: string[] = [];
      const swept: string[] = [];
      for (const service of SERVICES) {
        const strongest = credentials.get(service)!.at(-1)!;
        for (const op of operations.get(service)!) {
          if (!op.body || formatOf(service, op) !== 'platform') continue;
          const fields = freeFormProperties(op.body, op.resolve);
          if (fields.length === 0) continue;
          swept.push(`${service} ${operationName(op)} (${fields.join(', ')})`);
          await fc.assert(
            fc.asyncProperty(deepFreeFormRequests(op, fields), async (request) => {
              const answer = await send(platform.url(service), request, strongest);
              if (answer.status >= 500 || (answer.status >= 400 && judge('platform', answer)))
                failures.push(
                  `${service} ${describeRequest(request)} → ${answer.status} ${answer.text.slice(0, 200)}`,
                );
            }),
            { numRuns: 3 },
          );
        }
      }
      console.log(`free-form fields given 10,000-deep values:\n  ${swept.join('\n  ')}`);
      expect(swept.length).toBeGreaterThan(0);
      expect(failures).toEqual([]);
    });
  });
}

/** Runs one kind of hostile request against an operation; the first wrong answer, or undefined. */
async function sweepKind(
  base: string,
  kind: CaseKind,
  modes: Credential[],
  format: ErrorFormat,
  sweep: Sweep,
): Promise<string | undefined> {
  // A single run goes with the strongest credential: the check behind authentication is the one to reach.
  const credential = kind.runs === 1 ? fc.constant(modes.at(-1)!) : fc.constantFrom(...modes);
  const result = await fc.check(
    fc.asyncProperty(kind.arbitrary, credential, async (request, mode) => {
      const answer = await send(base, request, mode);
      sweep.statuses.set(answer.status, (sweep.statuses.get(answer.status) ?? 0) + 1);
      const problem = judge(format, answer);
      if (problem)
        throw new Error(
          `${problem} with ${mode.name} to ${describeRequest(request)}: ${answer.text.slice(0, 300)}`,
        );
    }),
    { numRuns: kind.runs * SCALE, endOnFailure: true },
  );
  if (!result.failed) return undefined;
  const error =
    result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
  return `${kind.name} (seed ${result.seed}): ${error}`;
}

function report(service: string, sweeps: Sweep[], unswept: string[]) {
  const lines = sweeps
    .sort((a, b) => operationName(a.operation).localeCompare(operationName(b.operation)))
    .map((s) => {
      const total = [...s.statuses.values()].reduce((a, b) => a + b, 0);
      const statuses = [...s.statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ');
      return `  ${operationName(s.operation).padEnd(44)} ${String(total).padStart(3)} requests  ${statuses}`;
    });
  const skipped = unswept.length
    ? `\n  no input to attack (no body, no constrained parameter): ${unswept.join(', ')}`
    : '';
  console.log(`${service}: swept ${sweeps.length} endpoints\n${lines.join('\n')}${skipped}`);
}
