/**
 * @module e2e/support/openapi-cases
 * Hostile requests generated from a service's OpenAPI document. For every
 * operation with a JSON body or constrained parameters it builds fast-check
 * arbitraries of requests that are certainly invalid, one arbitrary per kind of
 * hostility: a missing body, wrong or lying content types, malformed JSON, invalid
 * UTF-8, a body that is not an object, a schema violation (wrong type, missing
 * field, out of range, too long) with extra fields, huge strings under and over
 * the body limit, 10,000-deep nesting, and bad query/path parameters.
 */
import fc from 'fast-check';
import {
  conforms,
  hostileValidValue,
  isAnyValue,
  type JsonSchema,
  objectViolation,
  type Resolve,
  resolverOf,
  validValue,
  violatingValue,
} from './openapi-schema.js';

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: JsonSchema;
}

/** How a body is encoded on the wire. */
export type Encoding = 'json' | 'form';

export interface Operation {
  service: string;
  method: string;
  /** The OpenAPI path template, e.g. `/api/receipts/{receiptId}`. */
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
  encoding: Encoding;
  /** Headers every request to it carries (e.g. MCP's `Accept`). */
  headers?: Record<string, string>;
  resolve: Resolve;
}

/** `POST /api/x`, the name an operation goes by in titles and reports. */
export const operationName = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

/**
 * The operations of a document that take input worth attacking: a JSON body, or
 * a parameter with a constraint (required, enum, pattern, length, range).
 */
export function sweepableOperations(
  service: string,
  document: OpenApiDocument,
  /** Also operations whose parameters are free strings (for well-formed hostile values). */
  options: { anyParameter?: boolean } = {},
): Operation[] {
  const resolve = resolverOf(document);
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = (operation.parameters ?? [])
        .filter((p) => p.in === 'query' || p.in === 'path' || p.in === 'header')
        .map((p) => ({
          name: p.name,
          in: p.in as Parameter['in'],
          required: p.required === true,
          schema: resolve(p.schema),
        }));
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const op: Operation = {
        service,
        method: method.toUpperCase(),
        path,
        parameters,
        encoding: 'json',
        resolve,
        ...(body ? { body: resolve(body) } : {}),
      };
      const attackable = options.anyParameter
        ? parameters.length > 0
        : parameters.some((p) => violatingParameter(p, resolve));
      if (op.body || attackable) operations.push(op);
    }
  }
  return operations;
}

/** A request on the wire: already encoded, ready for `fetch`. */
export interface HostileRequest {
  kind: string;
  method: string;
  /** Path and query string, encoded. */
  target: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** A short description of a request for failure messages. */
export function describeRequest(request: HostileRequest): string {
  const body = request.body ? Buffer.from(request.body) : undefined;
  const preview = body
    ? `${body.subarray(0, 160).toString('utf8')}${body.length > 160 ? `… (${body.length} bytes)` : ''}`
    : '(no body)';
  return `[${request.kind}] ${request.method} ${request.target.slice(0, 200)} content-type=${request.headers['content-type'] ?? '(none)'} body=${preview}`;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const DEEP_NESTING = 10_000;

/** 10,000 nested arrays (or objects) as JSON text: well-formed, and a classic stack breaker. */
export const deeplyNested = (kind: 'array' | 'object', depth = DEEP_NESTING) =>
  kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

// Placeholders that survive JSON.stringify and are swapped for raw bytes afterwards.
const escapedMark = (mark: string) => JSON.stringify(mark).slice(1, -1);
const INVALID_UTF8_MARK = '\u0001INVALID_UTF8\u0001';
const DEEP_ARRAY_MARK = '\u0001DEEP_ARRAY\u0001';
const DEEP_OBJECT_MARK = '\u0001DEEP_OBJECT\u0001';
const INVALID_UTF8 = [
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xc0, 0xaf]), // overlong '/'
  Buffer.from([0xed, 0xa0, 0x80]), // a lone surrogate
  Buffer.from([0xf4, 0x90, 0x80, 0x80]), // beyond U+10FFFF
];

/** JSON text with the placeholders replaced by invalid UTF-8 or deep nesting. */
function encodeJson(value: unknown, invalidUtf8: Buffer = INVALID_UTF8[0]!): Buffer {
  let text = JSON.stringify(value);
  text = text
    .replaceAll(JSON.stringify(DEEP_ARRAY_MARK), deeplyNested('array'))
    .replaceAll(JSON.stringify(DEEP_OBJECT_MARK), deeplyNested('object'));
  const parts = text.split(escapedMark(INVALID_UTF8_MARK)).map((part) => Buffer.from(part, 'utf8'));
  return Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [part] : [invalidUtf8, part])));
}

/** The fields of a form as the server reads them: every value a string. */
function formFields(value: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, field] of Object.entries(value))
      fields[key] = typeof field === 'string' ? field : JSON.stringify(field);
  }
  return fields;
}

function encodeForm(value: unknown): Buffer {
  const form = new URLSearchParams();
  for (const [key, field] of Object.entries(formFields(value))) form.append(key, field);
  return Buffer.from(form.toString());
}

/** What the server receives for a body value, given the operation's encoding. */
function submitted(op: Operation, value: unknown): unknown {
  return op.encoding === 'form' ? formFields(value) : value;
}

/** A parameter value that breaks its declared constraint, as the string that goes on the wire. */
function violatingParameter(parameter: Parameter, resolve: Resolve): fc.Arbitrary<string> | undefined {
  const s = resolve(parameter.schema);
  const candidates: fc.Arbitrary<string>[] = [];
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('integer') || types.includes('number')) {
    candidates.push(fc.constantFrom('abc', '1.5x', '0x10', 'NaN', 'Infinity', '[]'));
    if (s.minimum !== undefined) candidates.push(fc.constant(String(s.minimum - 1)));
    if (s.maximum !== undefined) candidates.push(fc.constant(String(s.maximum + 1)), fc.constant('1e999'));
  }
  if (s.maxLength !== undefined)
    candidates.push(fc.integer({ min: s.maxLength + 1, max: s.maxLength + 500 }).map((n) => 'a'.repeat(n)));
  if (s.enum) candidates.push(fc.constantFrom('bogus', 'APPROVED', ' draft', 'draft\u0000'));
  if (s.pattern) candidates.push(fc.constantFrom('NOT-VALID', 'rcpt_', '0x', '../x', `${'z'.repeat(40)}`));
  if (candidates.length === 0) return undefined;
  return fc.oneof(...candidates).filter((value) => {
    if (types.includes('integer') || types.includes('number')) {
      const n = Number(value);
      return !(value.trim() !== '' && Number.isFinite(n) && conforms(s, n, resolve));
    }
    return !conforms(s, value, resolve);
  });
}

/** A well-formed parameter value (the route must still match so the body is what gets judged). */
function validParameter(parameter: Parameter, resolve: Resolve): fc.Arbitrary<string> {
  const s = resolve(parameter.schema);
  // Header values must be visible ASCII, or fetch refuses to send them.
  if (parameter.in === 'header') return fc.stringMatching(/^[\x21-\x7e]{1,40}$/);
  if (!s.pattern && !s.enum && (s.type === 'string' || s.type === undefined)) {
    // Unconstrained strings get hostile but legal content: control characters, non-ASCII, slashes.
    return fc.oneof(
      fc.string({ minLength: 1, maxLength: Math.min(s.maxLength ?? 40, 40) }),
      fc.constantFrom('ü-ß-漢字', 'a/b', '%00', 'x'.repeat(Math.min(s.maxLength ?? 300, 300))),
    );
  }
  return validValue(s, resolve).map(String);
}

interface Parts {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Raw (unencoded) path values: malformed percent-escapes on purpose. */
  rawPath?: boolean;
}

function buildTarget(op: Operation, parts: Parts): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = parts.path[name] ?? 'x';
    // A URL carries UTF-8: a lone surrogate goes out as U+FFFD (encodeURIComponent would throw).
    return parts.rawPath ? value : encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'));
  });
  const query = new URLSearchParams(parts.query).toString();
  return query ? `${path}?${query}` : path;
}

/** Valid parameters for every required one, and some of the optional ones. */
function validParts(op: Operation): fc.Arbitrary<Parts> {
  const entries = op.parameters.map((p) =>
    p.required || p.in === 'path'
      ? validParameter(p, op.resolve).map((v) => [p, v] as const)
      : fc.option(validParameter(p, op.resolve), { nil: undefined }).map((v) => [p, v] as const),
  );
  return fc.tuple(...entries).map((pairs) => {
    const parts: Parts = { path: {}, query: {}, headers: {} };
    for (const [p, value] of pairs)
      if (value !== undefined) parts[p.in === 'header' ? 'headers' : p.in][p.name] = value;
    return parts;
  });
}

const EXTRA_FIELDS = fc.dictionary(
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.constantFrom('__proto__', 'constructor', 'isAdmin', 'role'),
  ),
  fc.jsonValue({ maxDepth: 2 }),
  { minKeys: 1, maxKeys: 4 },
);

/** The request kinds; `runs` says how many times each one is tried per operation and credential. */
export interface CaseKind {
  name: string;
  runs: number;
  arbitrary: fc.Arbitrary<HostileRequest>;
}

export interface CaseOptions {
  /** The operation answers any body that is not JSON (whatever its content type) with a 400, so a
   * wrong content type alone is not a rejection; pair it with a bad body. */
  contentTypeAgnostic?: boolean;
}

/** Every kind of hostile request that applies to `op`. */
export function hostileKinds(op: Operation, options: CaseOptions = {}): CaseKind[] {
  const kinds: CaseKind[] = [];
  const parts = validParts(op);
  const request = (kind: string, p: Parts, contentType: string | undefined, body?: Uint8Array) => {
    const headers: Record<string, string> = { ...op.headers, ...p.headers };
    if (contentType !== undefined) headers['content-type'] = contentType;
    return { kind, method: op.method, target: buildTarget(op, p), headers, ...(body ? { body } : {}) };
  };
  const jsonType = op.encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  const encode = op.encoding === 'json' ? (v: unknown) => encodeJson(v) : encodeForm;

  const paramViolations = op.parameters
    .map((p) => [p, violatingParameter(p, op.resolve)] as const)
    .filter((pair): pair is [Parameter, fc.Arbitrary<string>] => pair[1] !== undefined);
  const requiredParams = op.parameters.filter((p) => p.required && p.in !== 'path');

  if (op.body) {
    const schema = op.body;
    const valid = validValue(schema, op.resolve);
    // A form carries strings only: a violation must still be one once encoded.
    const isViolation = (value: unknown) => !conforms(schema, submitted(op, value), op.resolve);
    const violation = (objectViolation(schema, op.resolve) ?? violatingValue(schema, op.resolve)!).filter(
      isViolation,
    );
    const stringFields = Object.entries(op.resolve(schema).properties ?? {}).filter(([, p]) => {
      const s = op.resolve(p);
      return s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));
    });
    const typedFields = Object.entries(op.resolve(schema).properties ?? {}).filter(
      ([, p]) => !isAnyValue(op.resolve(p)),
    );
    // Under a wrong content type a lenient endpoint would take a valid body, so it gets a bad one.
    const offType = options.contentTypeAgnostic ? violation : valid;

    kinds.push({
      name: 'no body',
      runs: 2,
      arbitrary: fc
        // Without a content type the validator reads an absent body as `{}`, which is a valid
        // body when no field is required (agent POST /api/config): only then is it left out.
        .tuple(parts, fc.constantFrom(jsonType, ...(requiresFields(op) ? [undefined] : [])))
        .map(([p, type]) => request('no body', p, type)),
    });
    kinds.push({
      name: 'wrong content type',
      runs: 3,
      arbitrary: fc
        .tuple(
          parts,
          offType,
          fc.constantFrom(
            'text/plain',
            op.encoding === 'json' ? 'application/x-www-form-urlencoded' : 'application/json',
            'multipart/form-data; boundary=xv',
            'application/xml',
            'application/octet-stream',
            undefined,
          ),
        )
        .map(([p, body, type]) =>
          request(
            'wrong content type',
            p,
            type,
            type?.startsWith('application/x-www-form') ? encodeForm(body) : encodeJson(body),
          ),
        ),
    });
    kinds.push({
      name: 'lying content type',
      runs: 2,
      arbitrary: fc
        .tuple(
          parts,
          fc.constantFrom(
            Buffer.from('name=x&email=y%40z.test'),
            Buffer.from('<xml><a>1</a></xml>'),
            Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
            Buffer.from('--xv\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xv--\r\n'),
          ),
        )
        .map(([p, body]) => request('lying content type', p, jsonType, body)),
    });
    if (op.encoding === 'json') {
      kinds.push({
        name: 'malformed JSON',
        runs: 4,
        arbitrary: fc
          .tuple(
            parts,
            valid,
            fc.constantFrom(
              'truncate',
              'trailing',
              'single-quotes',
              'nan',
              'comment',
              'empty',
              'bom-garbage',
            ),
          )
          .map(([p, body, how]) => {
            const text = JSON.stringify(body);
            const broken = {
              truncate: text.slice(0, Math.max(1, text.length - 1)),
              trailing: `${text}}}`,
              'single-quotes': text.replaceAll('"', "'"),
              nan: `{"x": NaN, ${text.slice(1)}`,
              comment: `/* hi */${text}`,
              empty: '',
              'bom-garbage': `\ufeff${text}xx`,
            }[how];
            return request('malformed JSON', p, jsonType, Buffer.from(broken));
          }),
      });
    }
    kinds.push({
      name: 'invalid UTF-8',
      runs: 3,
      arbitrary: fc
        .tuple(parts, violation, fc.constantFrom(...INVALID_UTF8), fc.boolean())
        .map(([p, body, bytes, whole]) => {
          if (whole)
            return request('invalid UTF-8', p, jsonType, Buffer.concat([bytes, Buffer.from('{}'), bytes]));
          // Invalid bytes inside string values of a body that is wrong anyway.
          let marked: unknown = [body, INVALID_UTF8_MARK];
          if (isObject(body)) {
            const record: Record<string, unknown> = { ...body, [`k${INVALID_UTF8_MARK}`]: INVALID_UTF8_MARK };
            for (const [key] of stringFields.slice(0, 2)) {
              if (typeof record[key] !== 'string') continue;
              const before = record[key];
              record[key] = `${before}${INVALID_UTF8_MARK}`;
              // The server reads the bytes as U+FFFD: that must not mend the violation (e.g. an empty string).
              if (
                !isViolation(
                  JSON.parse(JSON.stringify(record).replaceAll(escapedMark(INVALID_UTF8_MARK), '\\ufffd')),
                )
              )
                record[key] = before;
            }
            marked = record;
          }
          return request(
            'invalid UTF-8',
            p,
            jsonType,
            op.encoding === 'json' ? encodeJson(marked, bytes) : encodeFormBytes(marked, bytes),
          );
        }),
    });
    kinds.push({
      name: 'not an object',
      runs: 2,
      arbitrary: fc
        .tuple(parts, fc.constantFrom<unknown>([], [{}], 'a string', 42, null, true, -0.5))
        .map(([p, body]) => request('not an object', p, jsonType, encodeJson(body))),
    });
    kinds.push({
      name: 'schema violation with extra fields',
      runs: 14,
      arbitrary: fc
        .tuple(parts, violation, fc.option(EXTRA_FIELDS, { nil: undefined }))
        .map(([p, body, extra]) => [p, extra && isObject(body) ? { ...extra, ...body } : body] as const)
        // An extra field must not fill in the very field the violation left out.
        .filter(([, body]) => isViolation(body))
        .map(([p, body]) => request('schema violation with extra fields', p, jsonType, encode(body))),
    });
    const longFields = stringFields.filter(([, s]) => op.resolve(s).maxLength !== undefined);
    kinds.push({
      name: 'huge string under the body limit',
      runs: 1,
      arbitrary: fc
        .tuple(parts, valid, violation, fc.integer({ min: 200_000, max: BODY_LIMIT_BYTES - 64 * 1024 }))
        .map(([p, base, bad, size]) => {
          // Past a field's maxLength when there is one (invalid by itself), else beside a violation.
          const target = longFields.find(([, s]) => (op.resolve(s).maxLength ?? 0) < size);
          const huge = 'a'.repeat(size);
          const body = target
            ? { ...(base as object), [target[0]]: huge }
            : isObject(bad)
              ? { ...bad, huge }
              : [bad, huge];
          return request('huge string under the body limit', p, jsonType, encode(body));
        }),
    });
    kinds.push({
      name: 'body over the 1 MiB limit',
      runs: 1,
      arbitrary: fc
        .tuple(parts, valid, fc.integer({ min: BODY_LIMIT_BYTES + 1, max: BODY_LIMIT_BYTES + 256 * 1024 }))
        .map(([p, base, size]) =>
          request(
            'body over the 1 MiB limit',
            p,
            jsonType,
            encode({ ...(base as object), [stringFields[0]?.[0] ?? 'pad']: 'a'.repeat(size) }),
          ),
        ),
    });
    if (op.encoding === 'json') {
      kinds.push({
        name: '10,000-deep nesting',
        runs: 2,
        arbitrary: fc
          .tuple(parts, valid, fc.constantFrom(DEEP_ARRAY_MARK, DEEP_OBJECT_MARK), fc.boolean())
          .map(([p, base, mark, whole]) => {
            // As the whole body (never an object of this schema), or in a field that wants no such thing.
            const sample = mark === DEEP_ARRAY_MARK ? [[[]]] : { a: { a: 1 } };
            const field = typedFields.find(([, s]) => !conforms(s, sample, op.resolve));
            const body =
              whole || !field
                ? mark === DEEP_ARRAY_MARK || !requiresFields(op)
                  ? DEEP_ARRAY_MARK
                  : mark
                : { ...(base as object), [field[0]]: mark };
            return request('10,000-deep nesting', p, jsonType, encodeJson(body));
          }),
      });
    }
    if (paramViolations.length > 0 || requiredParams.length > 0) {
      kinds.push({
        name: 'bad parameters',
        runs: 4,
        arbitrary: paramArbitrary(op, parts, paramViolations, requiredParams).chain(([p, kind]) =>
          violation.map((body) => request(kind, p, jsonType, encode(body))),
        ),
      });
    }
  } else {
    kinds.push({
      name: 'bad parameters',
      runs: 16,
      arbitrary: paramArbitrary(op, parts, paramViolations, requiredParams).map(([p, kind]) =>
        request(kind, p, undefined),
      ),
    });
  }
  if (op.path.includes('{')) {
    kinds.push({
      name: 'malformed escapes in the path',
      runs: 1,
      arbitrary: fc.tuple(parts, fc.constantFrom('%E0%A4%A', '%ZZ', '%C0%AF', '%')).chain(([p, raw]) => {
        const name = /\{(\w+)\}/.exec(op.path)![1]!;
        const broken = { ...p, path: { ...p.path, [name]: raw }, rawPath: true };
        return (
          op.body ? (objectViolation(op.body, op.resolve) ?? fc.constant([])) : fc.constant(undefined)
        ).map((body) =>
          request(
            'malformed escapes in the path',
            broken,
            op.body ? jsonType : undefined,
            body === undefined ? undefined : encode(body),
          ),
        );
      }),
    });
  }
  return kinds;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function requiresFields(op: Operation): boolean {
  return (op.resolve(op.body ?? {}).required ?? []).length > 0;
}

function encodeFormBytes(value: unknown, bytes: Buffer): Buffer {
  const text = encodeForm(value).toString();
  const mark = encodeURIComponent(INVALID_UTF8_MARK);
  const percent = [...bytes].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  return Buffer.from(text.replaceAll(mark, percent));
}

/** Parameters with one defect: a constraint broken, or a required one left out. */
function paramArbitrary(
  op: Operation,
  parts: fc.Arbitrary<Parts>,
  violations: [Parameter, fc.Arbitrary<string>][],
  required: Parameter[],
): fc.Arbitrary<[Parts, string]> {
  const options: fc.Arbitrary<[Parts, string]>[] = [];
  if (violations.length > 0) {
    options.push(
      fc
        .constantFrom(...violations)
        .chain(([p, bad]) => fc.tuple(parts, fc.constant(p), bad))
        .map(([ps, p, bad]) => {
          const where = p.in === 'header' ? 'headers' : p.in;
          return [{ ...ps, [where]: { ...ps[where], [p.name]: bad } }, `bad ${p.in} parameter ${p.name}`];
        }),
    );
  }
  if (required.length > 0) {
    options.push(
      fc.tuple(parts, fc.constantFrom(...required)).map(([ps, p]) => {
        const where = p.in === 'header' ? 'headers' : p.in;
        const rest = { ...ps[where] };
        delete rest[p.name];
        return [{ ...ps, [where]: rest }, `missing ${p.in} parameter ${p.name}`];
      }),
    );
  }
  if (options.length === 0) throw new Error(`${operationName(op)} has no parameter to break`);
  return fc.oneof(...options);
}

/**
 * Well-formed but hostile: 10,000-deep values in the free-form fields of an
 * otherwise valid body (a seal's `output`, an attestation's `claim`). A service
 * may take or refuse them; it must not fail.
 */
export function deepFreeFormRequests(op: Operation, fields: string[]): fc.Arbitrary<HostileRequest> {
  return fc
    .tuple(
      validParts(op),
      validValue(op.body!, op.resolve),
      fc.constantFrom(...fields),
      fc.constantFrom(DEEP_ARRAY_MARK, DEEP_OBJECT_MARK),
    )
    .map(([p, base, field, mark]) => ({
      kind: `10,000-deep ${field}`,
      method: op.method,
      target: buildTarget(op, p),
      headers: { ...op.headers, ...p.headers, 'content-type': 'application/json' },
      body: encodeJson({ ...(base as object), [field]: mark }),
    }));
}

/**
 * Well-formed but hostile: every field valid by the schema, filled with injection
 * strings, control characters, lone surrogates, odd Unicode and boundary numbers.
 * These reach the handlers (behind authentication, with credentials), which may
 * take or refuse them; they must not fail.
 */
export function wellFormedHostileRequests(op: Operation): fc.Arbitrary<HostileRequest> {
  const params = op.parameters.map((p) => {
    const s = op.resolve(p.schema);
    const value =
      p.in === 'header' || s.pattern || s.enum || (s.type !== 'string' && s.type !== undefined)
        ? validParameter(p, op.resolve)
        : // Kept under Node's 16 KiB limit for the request head (past it Node answers 431 itself).
          hostileValidValue({ ...s, maxLength: Math.min(s.maxLength ?? 4000, 4000) }, op.resolve)
            .map(String)
            .filter((v) => v !== '' || !p.required);
    return (p.required || p.in === 'path' ? value : fc.option(value, { nil: undefined })).map(
      (v) => [p, v] as const,
    );
  });
  const body = op.body ? hostileValidValue(op.body, op.resolve) : fc.constant(undefined);
  return fc.tuple(fc.tuple(...params), body).map(([pairs, value]) => {
    const parts: Parts = { path: {}, query: {}, headers: {} };
    for (const [p, v] of pairs) if (v !== undefined) parts[p.in === 'header' ? 'headers' : p.in][p.name] = v;
    const headers: Record<string, string> = { ...op.headers, ...parts.headers };
    if (op.body)
      headers['content-type'] =
        op.encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
    return {
      kind: 'well-formed hostile values',
      method: op.method,
      target: buildTarget(op, parts),
      headers,
      ...(op.body ? { body: op.encoding === 'json' ? encodeJson(value) : encodeForm(value) } : {}),
    };
  });
}
