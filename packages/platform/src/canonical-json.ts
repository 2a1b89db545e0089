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

/** Whether `value` nests objects and arrays at most `maxDepth` deep (checked without recursion, so any input is safe). */
export function withinJsonDepth(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return false;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return true;
}
