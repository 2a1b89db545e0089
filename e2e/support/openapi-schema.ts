/**
 * @module e2e/support/openapi-schema
 * The JSON Schema subset our `/openapi.json` documents use (types, enums, lengths,
 * patterns, ranges, required properties, arrays, `anyOf`, `$ref`, `{}` for "any
 * JSON"), turned into fast-check arbitraries: values that conform, and values
 * that certainly do not. `conforms` is the judge for both, so a "violation" is
 * never accidentally valid.
 */
import fc from 'fast-check';

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
}

/** Resolves `#/components/schemas/X` references (recursively, once per level). */
export type Resolve = (schema: JsonSchema) => JsonSchema;

export function resolverOf(document: { components?: { schemas?: Record<string, JsonSchema> } }): Resolve {
  return function resolve(schema) {
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = document.components?.schemas?.[name];
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    return resolve(target);
  };
}

const typesOf = (schema: JsonSchema): string[] | undefined =>
  schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];

/** A schema that accepts any JSON value (zod's `unknown`/`any`). */
export function isAnyValue(schema: JsonSchema): boolean {
  return typesOf(schema) === undefined && !schema.enum && !schema.anyOf && !schema.oneOf && !schema.$ref;
}

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

// zod's e-mail check is stricter than this; a value failing this one fails zod's too.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether `value` satisfies `schema` (the subset above, as zod enforces it). */
export function conforms(schema: JsonSchema, value: unknown, resolve: Resolve): boolean {
  const s = resolve(schema);
  if (s.anyOf) return s.anyOf.some((branch) => conforms(branch, value, resolve));
  if (s.oneOf) return s.oneOf.some((branch) => conforms(branch, value, resolve));
  if (s.enum && !s.enum.includes(value)) return false;
  const types = typesOf(s);
  if (types) {
    const actual = typeOfValue(value);
    const ok = types.includes(actual) || (actual === 'integer' && types.includes('number'));
    if (!ok) return false;
  }
  if (typeof value === 'string') {
    if (s.minLength !== undefined && value.length < s.minLength) return false;
    if (s.maxLength !== undefined && value.length > s.maxLength) return false;
    if (s.pattern && !new RegExp(s.pattern).test(value)) return false;
    if (s.format === 'email' && !EMAIL.test(value)) return false;
  }
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) return false;
    if (s.maximum !== undefined && value > s.maximum) return false;
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) return false;
    if (s.maxItems !== undefined && value.length > s.maxItems) return false;
    if (s.items && !value.every((item) => conforms(s.items!, item, resolve))) return false;
  }
  if (typeOfValue(value) === 'object' && (s.properties || s.required)) {
    const record = value as Record<string, unknown>;
    for (const key of s.required ?? []) if (record[key] === undefined) return false;
    for (const [key, property] of Object.entries(s.properties ?? {})) {
      if (record[key] !== undefined && !conforms(property, record[key], resolve)) return false;
    }
  }
  return true;
}

/** Values that satisfy `schema`: the well-formed base a violation is planted in. */
export function validValue(schema: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.anyOf ?? s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf)!.map((b) => validValue(b, resolve)));
  if (s.enum) return fc.constantFrom(...s.enum);
  const types = typesOf(s);
  if (!types) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => validOfType(s, type, resolve)));
}

function validOfType(s: JsonSchema, type: string, resolve: Resolve): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': {
      const maxLength = Math.min(s.maxLength ?? 40, 40);
      const minLength = Math.min(s.minLength ?? 0, maxLength);
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => conforms(s, v, resolve));
      if (s.format === 'email') return fc.emailAddress().filter((v) => conforms(s, v, resolve));
      return fc.string({ minLength: Math.max(minLength, 1), maxLength: Math.max(maxLength, 1) });
    }
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = s.items ? validValue(s.items, resolve) : fc.jsonValue({ maxDepth: 1 });
      const minLength = s.minItems ?? 0;
      return fc.array(item, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
    }
    case 'object': {
      const properties = s.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, validValue(property, resolve)]),
      );
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((key) => key in properties) });
    }
    default:
      throw new Error(`schema type ${type} is not supported`);
  }
}

/** One of each JSON type, and a few hostile strings: candidates for "the wrong type". */
const WRONG_TYPES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  'true',
  '12',
  'x'.repeat(70),
  [],
  [1, 'a'],
  {},
  { $ne: null },
  JSON.parse('{"__proto__":{"admin":true}}'),
];

/** Values that certainly do NOT satisfy `schema` (empty when it accepts anything). */
export function violatingValue(schema: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> | undefined {
  const s = resolve(schema);
  if (isAnyValue(s)) return undefined;
  const candidates: fc.Arbitrary<unknown>[] = [fc.constantFrom(...WRONG_TYPES)];
  if (s.maxLength !== undefined) {
    const over = s.maxLength + 1;
    candidates.push(fc.integer({ min: over, max: over + 200 }).map((n) => 'a'.repeat(n)));
  }
  if (s.pattern || s.enum || s.format)
    candidates.push(fc.string({ maxLength: 30 }), fc.constantFrom('NOT-VALID', 'a b', '../../etc/passwd'));
  if (s.minimum !== undefined) candidates.push(fc.constant(s.minimum - 1));
  if (s.maximum !== undefined) candidates.push(fc.constant(s.maximum + 1), fc.constant(2 ** 53 + 2));
  if (s.maxItems !== undefined)
    candidates.push(fc.constant(Array.from({ length: s.maxItems + 1 }, () => 'a')));
  if (s.items) {
    const item = violatingValue(s.items, resolve);
    if (item) candidates.push(item.map((bad) => [bad]));
  }
  if (s.properties) {
    // An object whose one property is wrong, or that lacks a required one.
    const nested = objectViolation(s, resolve);
    if (nested) candidates.push(nested);
  }
  return fc.oneof(...candidates).filter((value) => !conforms(s, value, resolve));
}

/** An object of this schema with exactly one defect: a required property missing, or one property wrong. */
export function objectViolation(
  schema: JsonSchema,
  resolve: Resolve,
): fc.Arbitrary<Record<string, unknown>> | undefined {
  const s = resolve(schema);
  const properties = Object.entries(s.properties ?? {});
  const base = validValue(s, resolve) as fc.Arbitrary<Record<string, unknown>>;
  const options: fc.Arbitrary<Record<string, unknown>>[] = [];
  const required = s.required ?? [];
  if (required.length > 0) {
    options.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([value, key]) => {
        const copy = { ...value };
        delete copy[key];
        return copy;
      }),
    );
  }
  const wrongable = properties.filter(([, property]) => !isAnyValue(resolve(property)));
  if (wrongable.length > 0) {
    options.push(
      fc
        .constantFrom(...wrongable)
        .chain(([key, property]) =>
          fc.tuple(base, fc.constant(key), violatingValue(property, resolve) ?? fc.constant(undefined)),
        )
        .map(([value, key, bad]) => ({ ...value, [key]: bad })),
    );
  }
  if (options.length === 0) return undefined;
  return fc.oneof(...options).filter((value) => !conforms(s, value, resolve));
}

/** The properties of an object schema that accept any JSON value (where deep nesting is well-formed). */
export function freeFormProperties(schema: JsonSchema, resolve: Resolve): string[] {
  const s = resolve(schema);
  return Object.entries(s.properties ?? {})
    .filter(([, property]) => {
      const p = resolve(property);
      return isAnyValue(p) || (typesOf(p)?.includes('object') && !p.properties && p.additionalProperties);
    })
    .map(([key]) => key);
}

/** Strings that are legal by type but hostile by content: injections, controls, odd Unicode. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\n\t',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '" OR "" = "',
  'AND OR NOT NEAR',
  '* " ( ) : ^ - +',
  'col:term "unterminated',
  '!@#$%^&*()[]{}|\\;:\'",.<>/?`~',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/absolute/path.md',
  'file:///etc/passwd',
  '<script>alert(1)</script>',
  // Template and lookup injections, written with `$` + `{` on purpose.
  `{{7*7}}$${'{'}7*7}<%= 7*7 %>`,
  `$${'{'}jndi:ldap://127.0.0.1/x}`,
  '%s%s%s%n',
  '%00%2e%2e%2f',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil\u202c',
  '\ufeff',
  'e\u0301\u0301\u0301\u0301',
  '🧨💥👩‍👩‍👧‍👦',
  '漢字かなカナ한국어العربية',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0x7fffffffffffffff',
  '__proto__',
  'constructor',
  'rcpt_00000000000000000000000000',
  'org_00000000000000000000000000',
];

/** Values that satisfy `schema` but are hostile: the strings above, boundary numbers, extra keys. */
export function hostileValidValue(schema: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.anyOf ?? s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf)!.map((b) => hostileValidValue(b, resolve)));
  if (s.enum) return fc.constantFrom(...s.enum);
  const types = typesOf(s);
  if (!types)
    return fc.oneof(
      fc.constantFrom<unknown>(...HOSTILE_STRINGS, 2 ** 53 + 1, -0),
      fc.jsonValue({ maxDepth: 3 }),
    );
  const options = types.map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string': {
        if (s.pattern || s.format) return validOfType(s, type, resolve);
        const longest = s.maxLength ?? 100_000;
        return fc
          .oneof(
            fc.constantFrom(...HOSTILE_STRINGS),
            fc.string({ unit: 'binary', maxLength: Math.min(longest, 60) }),
            fc.constant('x'.repeat(Math.min(longest, 100_000))),
          )
          .filter((value) => conforms(s, value, resolve));
      }
      case 'integer':
      case 'number': {
        const bounds = [s.minimum, s.maximum, 0, -1, 1, 2 ** 31, 2 ** 53 - 1, -(2 ** 53) + 1].filter(
          (n): n is number => n !== undefined,
        );
        return fc
          .oneof(fc.constantFrom(...bounds), validOfType(s, type, resolve))
          .filter((value) => conforms(s, value, resolve));
      }
      case 'object': {
        const properties = s.properties ?? {};
        const model = Object.fromEntries(
          Object.entries(properties).map(([key, property]) => [key, hostileValidValue(property, resolve)]),
        );
        return fc.record(model, { requiredKeys: (s.required ?? []).filter((key) => key in properties) });
      }
      case 'array': {
        const item = s.items ? hostileValidValue(s.items, resolve) : fc.jsonValue({ maxDepth: 1 });
        const minLength = s.minItems ?? 0;
        return fc.array(item, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
      }
      default:
        return validOfType(s, type, resolve);
    }
  });
  return fc.oneof(...options).filter((value) => conforms(s, value, resolve));
}
