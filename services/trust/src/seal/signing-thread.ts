/**
 * @module seal/signing-thread
 * The body of a signing thread (started by signing-pool.ts): it keeps the issuer keys
 * it is handed, by key id, and signs claim bytes with them; it also checks the
 * signatures of proofs against public keys. A batch of both per message.
 */
import type { KeyObject } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { privateKeyToAccount } from 'viem/accounts';
import { checkSignatures, type SignatureCheck, type SignatureChecks } from './signature-checks.js';
import { type ClaimKeys, type Signatures, signClaimBytes } from './signatures.js';

export interface SignRequest {
  id: number;
  keyId: string;
  bytes: Uint8Array;
  digest: Uint8Array;
  /** The key pair, sent with the first request for `keyId` (KeyObjects are copied between threads). */
  keys?: { p256Private: KeyObject; secp256k1Private: KeyObject };
  /** Drop the keys held so far (the pool bounds how many a thread keeps). */
  forget?: boolean;
}

/** Check the signatures of a proof (no private key involved). */
export interface CheckRequest {
  id: number;
  check: SignatureCheck;
}

export type ThreadRequest = SignRequest | CheckRequest;

export type ThreadReply =
  | { id: number; signatures: Signatures }
  | { id: number; checks: SignatureChecks }
  | { id: number; error: string };

const keys = new Map<string, ClaimKeys>();

parentPort?.on('message', async (requests: ThreadRequest[]) => {
  const replies: ThreadReply[] = [];
  for (const request of requests) {
    try {
      if ('check' in request) {
        replies.push({ id: request.id, checks: await checkSignatures(request.check) });
        continue;
      }
      const signatures = await signClaimBytes(request.bytes, request.digest, keysOf(request));
      replies.push({ id: request.id, signatures });
    } catch (error) {
      replies.push({ id: request.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  parentPort?.postMessage(replies);
});

function keysOf(request: SignRequest): ClaimKeys {
  if (request.forget) keys.clear();
  if (request.keys) {
    const { p256Private, secp256k1Private } = request.keys;
    // The messages of key parsing errors could quote the key: say only which key failed.
    let secp256k1: ClaimKeys['secp256k1'];
    try {
      secp256k1 = privateKeyToAccount(`0x${secp256k1Private.export().toString('hex')}`);
    } catch {
      throw new Error(`the secp256k1 key of ${request.keyId} is not a valid private key`);
    }
    keys.set(request.keyId, { p256Private, secp256k1 });
  }
  const known = keys.get(request.keyId);
  if (!known) throw new Error(`the signing thread was not given the keys of ${request.keyId}`);
  return known;
}
