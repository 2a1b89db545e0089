/**
 * @module anchoring/inclusion
 * The anchor a proof file may carry (proof format, anchor versions 1 and 2) and its
 * check: the anchor names the proof's own fingerprint, the Merkle path leads from that
 * fingerprint to the root, and the chain holds a successful transaction from the
 * relayer whose calldata is that root.
 */
import { verifyInclusion } from '@xv/platform';
import { errors } from '../errors.js';
import type { ChainEvidence, ChainReader } from './chain-check.js';

/** Version 1 (before batching) has no root or path: its transaction carries `ref` itself. */
export interface ProofAnchor {
  version: 1 | 2;
  ref: string;
  txHash: string;
  root: string;
  path: string[];
}

export interface AnchorCheck extends Omit<ChainEvidence, 'problem'> {
  mode: 'onchain';
  txHash: string;
  root: string;
  path: string[];
  problem?: ChainEvidence['problem'] | 'wrong_ref' | 'wrong_path';
}

const HASH32 = /^0x[0-9a-f]{64}$/;
const FIELDS = new Set([
  'version',
  'mode',
  'ref',
  'txHash',
  'root',
  'path',
  'explorerUrl',
  'chainId',
  'from',
]);
const MAX_PATH = 64;

/** A proof's `anchor` object; anything else is a 400 `invalid_proof` naming what is wrong. */
export function parseProofAnchor(value: unknown): ProofAnchor {
  const bad = (why: string) => errors.invalid_proof(`The proof's anchor ${why}.`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('is not an object');
  const anchor = value as Record<string, unknown>;
  const extra = Object.keys(anchor).filter((key) => !FIELDS.has(key));
  if (extra.length > 0) throw bad(`has unexpected fields: ${extra.slice(0, 3).join(', ')}`);
  const version = anchor.version ?? 1;
  if (version !== 1 && version !== 2) throw bad('has an unknown version (1 and 2 exist)');
  const hash = (key: string) => {
    const field = anchor[key];
    if (typeof field !== 'string' || !HASH32.test(field))
      throw bad(`field ${key} is not 0x + 64 lowercase hex digits`);
    return field;
  };
  const ref = hash('ref');
  const txHash = hash('txHash');
  if (version === 1) {
    if (anchor.root !== undefined || anchor.path !== undefined) throw bad('of version 1 has no root or path');
    return { version, ref, txHash, root: ref, path: [] };
  }
  const root = hash('root');
  const path = anchor.path;
  if (!Array.isArray(path) || path.length > MAX_PATH || !path.every((node) => typeof node === 'string'))
    throw bad(`field path is not a list of at most ${MAX_PATH} hashes`);
  return { version, ref, txHash, root, path };
}

/** Checks `anchor` for the proof whose fingerprint is `fingerprint`, against the chain. */
export async function checkProofAnchor(
  anchor: ProofAnchor,
  fingerprint: string,
  chain: ChainReader,
  relayerAddress: string | undefined,
): Promise<AnchorCheck> {
  const stated = { mode: 'onchain' as const, txHash: anchor.txHash, root: anchor.root, path: anchor.path };
  const refused = (problem: AnchorCheck['problem']): AnchorCheck => ({
    ...stated,
    onChain: false,
    blockNumber: null,
    confirmations: 0,
    problem,
  });
  if (anchor.ref !== fingerprint) return refused('wrong_ref');
  if (!verifyInclusion(anchor.ref, anchor.path, anchor.root)) return refused('wrong_path');
  if (!relayerAddress) return refused('chain_unreachable');
  return { ...stated, ...(await chain.confirm(anchor.txHash, { ref: anchor.root, from: relayerAddress })) };
}
