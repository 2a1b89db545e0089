/**
 * @module client/lib/anchor
 * A proof's anchor, checked as far as a browser can: it names this proof's
 * fingerprint and its Merkle path (sorted-pair Keccak-256) leads to `root`. Whether
 * the chain holds `root` in `txHash` is asked of the server with those two hashes only.
 */
import { fromHex, hex, isObject } from './encoding.js';
import { keccak256 } from './signatures.js';

export interface AnchorVerdict {
  version?: unknown;
  txHash?: string;
  root?: unknown;
  path?: unknown;
  /** The path leads from the fingerprint to the root. */
  inclusion: boolean;
  problem?: 'malformed' | 'wrong_ref' | 'wrong_path';
}

const HASH32 = /^0x[0-9a-f]{64}$/;
const isHash = (value: unknown): value is string => typeof value === 'string' && HASH32.test(value);

/** A proof's anchor (version 1: the transaction carries ref itself; 2: ref, root and path). */
export function checkAnchor(anchor: unknown, fingerprint: string): AnchorVerdict {
  if (!isObject(anchor) || !isHash(anchor.ref) || !isHash(anchor.txHash))
    return { inclusion: false, problem: 'malformed' };
  const version = anchor.version === undefined ? 1 : anchor.version;
  const root = version === 1 ? anchor.ref : anchor.root;
  const path = version === 1 ? [] : anchor.path;
  const stated = { version, txHash: anchor.txHash, root, path };
  if (
    (version !== 1 && version !== 2) ||
    !isHash(root) ||
    !Array.isArray(path) ||
    path.length > 64 ||
    !path.every(isHash)
  )
    return { ...stated, inclusion: false, problem: 'malformed' };
  if (anchor.ref !== fingerprint) return { ...stated, inclusion: false, problem: 'wrong_ref' };
  let node = anchor.ref.slice(2);
  for (const sibling of path as string[]) {
    const other = sibling.slice(2);
    const [lo, hi] = node <= other ? [node, other] : [other, node];
    node = hex(keccak256(fromHex(lo + hi)));
  }
  return `0x${node}` === root
    ? { ...stated, inclusion: true }
    : { ...stated, inclusion: false, problem: 'wrong_path' };
}
