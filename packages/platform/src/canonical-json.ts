/**
 * @module canonical-json
 * RFC 8785 (JSON Canonicalization Scheme) text of a JSON value, from the
 * `canonicalize` package: the one form XV hashes when two equal values must give
 * one hash whatever the order of their object keys.
 */
import canonicalizeModule from 'canonicalize';

type Canonicalize = (value: unknown) => string | undefined;
// A CommonJS module: its export is the function itself, whatever the typings say.
const canonicalize: Canonicalize =
  (canonicalizeModule as unknown as { default?: Canonicalize }).default ??
  (canonicalizeModule as unknown as Canonicalize);

/**
 * The RFC 8785 text of `value`. It recurses through the value: bound the nesting of untrusted input before
 * calling it. Throws a TypeError for a value with no JSON form (undefined, a function).
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('The value has no JSON form.');
  return text;
}
