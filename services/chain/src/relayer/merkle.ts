/**
 * @module relayer/merkle
 * The Merkle tree of a batch of anchored fingerprints: OpenZeppelin's
 * `SimpleMerkleTree`, whose leaves are the 32-byte fingerprints themselves and whose
 * inner nodes are keccak256 of the two children in ascending byte order (the
 * sorted-pair scheme Solidity's `MerkleProof.verify` accepts). A tree of one leaf
 * has that leaf as its root and an empty path.
 */
import { SimpleMerkleTree } from '@openzeppelin/merkle-tree';
import type { Hex } from 'viem';

export interface BatchTree {
  root: Hex;
  /** Each leaf's path: the sibling hashes from the leaf up to the root. */
  paths: Map<Hex, Hex[]>;
}

/** The tree over distinct, lowercase 0x-hex fingerprints. */
export function batchTree(leaves: Hex[]): BatchTree {
  const tree = SimpleMerkleTree.of(leaves);
  const paths = new Map<Hex, Hex[]>();
  for (const [index, leaf] of tree.entries()) paths.set(leaf as Hex, tree.getProof(index) as Hex[]);
  return { root: tree.root as Hex, paths };
}
