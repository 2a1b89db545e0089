/**
 * @module workflows/input-hash
 * What an idempotency key is bound to besides its workflow: the SHA-256 (lowercase
 * hex) of the RFC 8785 canonical JSON of the run's validated input. Canonical, so
 * the same input sent with its fields in another order is the same input. The
 * input's nesting is bounded by its validation (`input.ts`).
 */
import { canonicalJson, sha256Hex } from '@xv/platform';

export function inputHash(input: Record<string, unknown>): string {
  return sha256Hex(canonicalJson(input));
}
