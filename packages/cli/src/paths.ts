/**
 * @module paths
 * Where the repository is, seen from the CLI (source or compiled, it sits two
 * folders below `packages/cli`).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
