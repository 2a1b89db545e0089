/**
 * @module workflows/input-hash
 * What an idempotency key is bound to besides its workflow: the SHA-256 (lowercase
 * hex) of the RFC 8785 canonical JSON of the run's validated input. Canonical, so
 * the same input sent with its fields in another order is the same input.
 */
import { sha256Hex } from '@xv/platform';
import canonicalizeModule from 'canonicalize';

type Canonicalize = (value: unknown) => string | undefined;
// A CommonJS module: its export is the function itself, whatever the typings say.
const canonicalize: Canonicalize =
  (canonicalizeModule as unknown as { default?: Canonicalize }).default ??
  (canonicalizeModule as unknown as Canonicalize);

export function inputHash(input: Record<string, unknown>): string {
  return sha256Hex(canonicalize(input) ?? '{}');
}
