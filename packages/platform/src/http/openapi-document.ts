/**
 * @module http/openapi-document
 * Completes a service's generated OpenAPI document with what follows from the
 * platform's own behaviour, so that no route has to repeat it:
 *
 * - the security schemes (`openapi.ts`), declared once per document;
 * - the refusals of the platform's access checks: 401 for an operation that needs
 *   a session or a scoped token, and 403 `insufficient_scope` for the token;
 * - 400 `invalid_request` (and `invalid_json`) for an operation with validated
 *   input, 413 `payload_too_large` for one with a body; a route whose own hook
 *   answers refused input with another code says so with `'x-input-error': '<code>'`
 *   (and lists that code itself);
 * - an example for every request body, response body and parameter a route gives
 *   none for, derived from its schema (the lint checks every example against its
 *   schema, `npm run lint:openapi`).
 */
import { type AppError, guardErrors, platformErrors } from '../errors.js';
import { securitySchemes } from './openapi.js';

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface Response {
  description?: string;
  content?: Record<string, MediaType>;
}
interface Parameter {
  name: string;
  in: string;
  schema?: Json;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  'x-input-error'?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Json>; securitySchemes?: Record<string, unknown> };
  [key: string]: unknown;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const ERROR_SCHEMA = '#/components/schemas/Error';
const GUARDED = new Set(['session', 'personalAccessToken', 'serviceToken']);

export function completeDocument<T extends object>(generated: T): T {
  const document = generated as OpenApiDocument;
  const schemas = document.components?.schemas ?? {};
  const used = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      operation.operationId ??= operationIdOf(method, path);
      for (const way of operation.security ?? []) for (const name of Object.keys(way)) used.add(name);
      addPlatformErrors(operation);
      addExamples(operation, schemas);
    }
  // Each document declares the schemes its operations use, all defined once in openapi.ts.
  const declared = Object.entries(securitySchemes).filter(([name]) => used.has(name));
  document.components = {
    ...document.components,
    ...(declared.length ? { securitySchemes: Object.fromEntries(declared) } : {}),
  };
  return generated;
}

/** `get /api/documents/{id}/history` → `getApiDocumentsIdHistory`: stable, and unique per document. */
function operationIdOf(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

function addPlatformErrors(operation: Operation) {
  operation.responses ??= {};
  const responses = operation.responses;
  const ways = operation.security ?? [];
  // Sessions and the two kinds of scoped token are checked by the platform's guards,
  // which refuse alike everywhere; a route checking another credential states its own.
  // A token named without scopes is only looked up (identity's `me`): a bad one is all it refuses.
  const secured = ways.length > 0 && ways.every((way) => Object.keys(way).length > 0);
  const guarded = ways.flatMap((way) => Object.entries(way)).filter(([name]) => GUARDED.has(name));
  const scopedTokens = guarded.filter(([name, scopes]) => name !== 'session' && scopes.length > 0);
  if (secured && guarded.length > 0) {
    if (guarded.some(([name]) => name === 'session') || scopedTokens.length > 0)
      addError(responses, platformErrors.unauthenticated());
    if (guarded.some(([name]) => name !== 'session')) addError(responses, guardErrors.invalid_token());
    if (scopedTokens.length > 0) addError(responses, guardErrors.insufficient_scope());
  }
  const hasBody = operation.requestBody !== undefined;
  if ((hasBody || (operation.parameters?.length ?? 0) > 0) && !operation['x-input-error'])
    addError(responses, platformErrors.invalid_request());
  if (hasBody && operation.requestBody?.content?.['application/json']) {
    addError(responses, platformErrors.invalid_json());
    addError(responses, platformErrors.payload_too_large());
  }
}

/** Adds `error` as an example of the operation's response for its status, unless one is there already. */
function addError(responses: Record<string, Response>, error: AppError) {
  const status = String(error.status);
  const response = ensure(responses, status, () => ({ description: '' }));
  response.content ??= {};
  const existing = response.content['application/json'];
  // A route that answers this status in another shape (OAuth's `{error, error_description}`) keeps it.
  if (existing && existing.schema?.$ref !== ERROR_SCHEMA) return;
  const media = ensure(response.content, 'application/json', () => ({ schema: { $ref: ERROR_SCHEMA } }));
  if (media.example !== undefined) {
    const value = media.example as { error?: string };
    media.examples = { [value.error ?? 'example']: { value } };
    delete media.example;
  }
  media.examples ??= {};
  const examples = media.examples;
  if (examples[error.code]) return;
  examples[error.code] = { summary: error.message, value: error.toJSON() };
  const codes = `\`${error.code}\``;
  response.description = response.description ? `${response.description}, ${codes}` : codes;
}

/** `record[key]`, made first when missing. */
function ensure<V>(record: Record<string, V>, key: string, make: () => V): V {
  const value = record[key] ?? make();
  record[key] = value;
  return value;
}

function addExamples(operation: Operation, schemas: Record<string, Json>) {
  for (const parameter of operation.parameters ?? [])
    if (parameter.example === undefined && parameter.schema)
      parameter.example = exampleOf(parameter.schema, schemas, parameter.name);
  const media = [
    ...Object.values(operation.requestBody?.content ?? {}),
    ...Object.values(operation.responses ?? {}).flatMap((r) => Object.values(r.content ?? {})),
  ];
  for (const entry of media)
    if (entry.example === undefined && entry.examples === undefined && entry.schema)
      entry.example = exampleOf(entry.schema, schemas);
}

const FORMAT_EXAMPLES: Record<string, string> = {
  email: 'ada@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '3f2b8c1e-5d7a-4e9b-9c21-7a1d0e4f6b53',
  'date-time': '2026-01-15T09:30:00.000Z',
  date: '2026-01-15',
};

/** A value that satisfies `schema` (JSON Schema as zod emits it), preferring the schema's own examples. */
export function exampleOf(schema: Json, schemas: Record<string, Json>, name = '', depth = 0): unknown {
  if (depth > 12) return null;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = schemas[ref.replace('#/components/schemas/', '')];
    return target ? exampleOf(target, schemas, name, depth + 1) : null;
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (choices?.length) {
    const concrete = choices.find((choice) => choice.type !== 'null') ?? choices[0]!;
    return exampleOf(concrete, schemas, name, depth + 1);
  }
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((part: Json) => exampleOf(part, schemas, name, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, exampleOf(value, schemas, key, depth + 1)]),
      );
    }
    case 'array': {
      const items = schema.items as Json | undefined;
      const count = Math.max(1, Number(schema.minItems ?? 1));
      return items ? Array.from({ length: count }, () => exampleOf(items, schemas, name, depth + 1)) : [];
    }
    case 'integer':
    case 'number':
      return numberExample(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return stringExample(schema, name);
    default:
      return {};
  }
}

function numberExample(schema: Json): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exclusive = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const value = minimum ?? exclusive ?? (maximum !== undefined ? Math.min(1, maximum) : 1);
  return schema.type === 'integer' ? Math.ceil(value) : value;
}

function stringExample(schema: Json, name: string): string {
  const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
  if (format) return format;
  const minLength = Number(schema.minLength ?? 0);
  const maxLength = Number(schema.maxLength ?? 64);
  const base = name ? `${name}-example` : 'example';
  const text = base.length >= minLength ? base : base.padEnd(minLength, 'x');
  return text.slice(0, Math.max(minLength, Math.min(maxLength, text.length)));
}
