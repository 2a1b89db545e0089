/**
 * @module anchoring
 * What the trust service and the chain relayer share about anchoring:
 *
 * - the relayer credential: the `XV_CHAIN_TOKEN` setting, or on the embedded
 *   default a token generated once into `<XV_DATA_DIR>/chain-token` (mode 0600)
 *   that both services read;
 * - Merkle inclusion proofs of a batch: OpenZeppelin's `SimpleMerkleTree`, whose
 *   leaves are the 32-byte fingerprints and whose inner nodes are keccak256 of the
 *   two children in ascending byte order (what Solidity's `MerkleProof.verify`
 *   accepts).
 */
import { join } from 'node:path';
import { SimpleMerkleTree } from '@openzeppelin/merkle-tree';
import { newSecretToken } from './crypto.js';
import { readOrCreateSecretFile } from './secret-file.js';

export const RELAYER_TOKEN_FILE = 'chain-token';

export function relayerToken(configured: string | undefined, dataDir: string): string {
  return configured ?? readOrCreateSecretFile(join(dataDir, RELAYER_TOKEN_FILE), () => newSecretToken('xvc'));
}

/** True when hashing `leaf` up along `path` gives `root`. Malformed input is simply not included. */
export function verifyInclusion(leaf: string, path: readonly string[], root: string): boolean {
  const hash32 = /^0x[0-9a-f]{64}$/;
  if (!hash32.test(leaf) || !hash32.test(root) || !path.every((node) => hash32.test(node))) return false;
  try {
    return SimpleMerkleTree.verify(root, leaf, [...path]);
  } catch {
    return false;
  }
}
