/**
 * @module seal/signing-pool
 * Signature work off the event loop. The secp256k1 signature is pure JavaScript (about 0.3 ms)
 * and on the event loop it would add to every other cost of a seal; a few worker
 * threads sign while the event loop serves HTTP and the database. They also check the
 * two signatures of the proofs `POST /api/verify` is given (`check`): with the
 * canonical bytes made on the event loop, the checks are about half of a
 * verification's CPU.
 *
 * - Keys: a thread is handed an issuer's decrypted keys (KeyObjects, copied from
 *   memory to memory) with its first claim for that key, and keeps them by key id.
 * - Batches: the claims of one turn of the event loop go to a thread as one message,
 *   and their signatures come back as one: under load, one wake-up of each side per
 *   turn rather than per claim.
 * - Crashes: a thread that dies is replaced when next needed. The claims it held are
 *   signed again by its successor (signing has no side effect) and fail with a
 *   SigningError if that one dies on them too: nothing is lost, nothing hangs.
 * - Shutdown: `close()` lets the claims in flight finish, then stops the threads.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SigningKey } from '../keys/keyring.js';
import type { ClaimSigner } from './manifest.js';
import type { SignatureCheck, SignatureChecker, SignatureChecks } from './signature-checks.js';
import type { Signatures } from './signatures.js';
import type { ThreadReply, ThreadRequest } from './signing-thread.js';

/** A claim whose signing failed; the message says why (never with key material). */
export class SigningError extends Error {
  override name = 'SigningError';
}

/** Starts one signing thread. */
export function startSigningThread(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./signing-thread.js', import.meta.url));
  // Run from the TypeScript sources (tests, `tsx`): Node 20 gives worker threads no ESM
  // loader hooks, so the thread compiles its module with tsx's in-thread require hook.
  const require = createRequire(import.meta.url);
  const entry = fileURLToPath(new URL('./signing-thread.ts', import.meta.url));
  const source = `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
require(${JSON.stringify(entry)});`;
  return new Worker(source, { eval: true });
}

/** Attempts per claim: a thread crash is retried once on a fresh thread. */
const ATTEMPTS = 2;
/** Keys a thread keeps before it is told to forget them all. */
const KEYS_PER_THREAD = 10_000;
/** How long `close()` waits for claims in flight. */
const CLOSE_GRACE_MS = 5000;

/** A claim to sign, or the signatures of a proof to check. */
type Work =
  | { bytes: Uint8Array; digest: Uint8Array; key: SigningKey; resolve(signatures: Signatures): void }
  | { check: SignatureCheck; resolve(checks: SignatureChecks): void };

interface Job {
  id: number;
  work: Work;
  attempts: number;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  jobs: Map<number, Job>;
  /** Ids of the keys this thread was handed. */
  keys: Set<string>;
  /** Requests waiting for the end of this turn of the event loop. */
  outbox: ThreadRequest[];
  failure?: Error;
}

export interface SigningPoolOptions {
  threads: number;
  /** How a thread is started (tests start faulty ones). */
  start?: () => Worker;
}

export class SigningPool {
  private readonly slots: (Thread | undefined)[];
  private readonly start: () => Worker;
  private readonly pending = new Set<Promise<unknown>>();
  private nextId = 0;
  private closed = false;

  constructor(options: SigningPoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1)
      throw new RangeError('A signing pool needs at least one thread.');
    this.slots = new Array(options.threads).fill(undefined);
    this.start = options.start ?? startSigningThread;
  }

  /** Signs on the least busy thread, starting it on first use. */
  readonly sign: ClaimSigner = (bytes, digest, key) =>
    this.submit<Signatures>((resolve) => ({ bytes, digest, key, resolve }));

  /** Checks a proof's signatures on the least busy thread. */
  readonly check: SignatureChecker = (check) =>
    this.submit<SignatureChecks>((resolve) => ({ check, resolve }));

  private submit<T>(work: (resolve: (value: T) => void) => Work): Promise<T> {
    if (this.closed) return Promise.reject(new SigningError('The signing pool is closed.'));
    const done = new Promise<T>((resolve, reject) =>
      this.dispatch({ id: ++this.nextId, work: work(resolve), attempts: 0, reject }),
    );
    this.pending.add(done);
    const forget = () => this.pending.delete(done);
    done.then(forget, forget);
    return done;
  }

  /** Waits for the claims in flight (at most a few seconds), then stops every thread. */
  async close(): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(this.pending),
      new Promise((resolve) => {
        timer = setTimeout(resolve, CLOSE_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    await Promise.all(this.slots.map((thread) => thread?.worker.terminate()));
  }

  private dispatch(job: Job) {
    job.attempts++;
    const thread = this.leastBusy();
    thread.jobs.set(job.id, job);
    // A busy thread keeps the process alive; an idle one does not.
    if (thread.jobs.size === 1) thread.worker.ref();
    if (thread.outbox.push(this.requestFor(job, thread)) === 1)
      setImmediate(() => thread.worker.postMessage(thread.outbox.splice(0)));
  }

  private requestFor({ id, work }: Job, thread: Thread): ThreadRequest {
    if ('check' in work) return { id, check: work.check };
    const { key } = work;
    const request: ThreadRequest = { id, keyId: key.keyId, bytes: work.bytes, digest: work.digest };
    if (!thread.keys.has(key.keyId)) {
      if (thread.keys.size >= KEYS_PER_THREAD) {
        thread.keys.clear();
        request.forget = true;
      }
      thread.keys.add(key.keyId);
      request.keys = { p256Private: key.p256Private, secp256k1Private: key.secp256k1Private };
    }
    return request;
  }

  private leastBusy(): Thread {
    let best = 0;
    for (let i = 0; i < this.slots.length; i++) {
      const load = this.slots[i]?.jobs.size ?? 0;
      if (load === 0) {
        best = i;
        break;
      }
      if (load < this.slots[best]!.jobs.size) best = i;
    }
    return this.slots[best] ?? this.spawn(best);
  }

  private spawn(slot: number): Thread {
    const thread: Thread = { worker: this.start(), jobs: new Map(), keys: new Set(), outbox: [] };
    this.slots[slot] = thread;
    thread.worker.unref();
    thread.worker.on('message', (replies: ThreadReply[]) => {
      for (const reply of replies) {
        const job = thread.jobs.get(reply.id);
        if (!job) continue;
        thread.jobs.delete(reply.id);
        const { work } = job;
        if ('error' in reply) job.reject(new SigningError(`Signing failed: ${reply.error}.`));
        else if ('checks' in reply && 'check' in work) work.resolve(reply.checks);
        else if ('signatures' in reply && 'key' in work) work.resolve(reply.signatures);
        else job.reject(new SigningError('A signing thread answered with the wrong kind of reply.'));
      }
      if (thread.jobs.size === 0) thread.worker.unref();
    });
    thread.worker.on('error', (error) => {
      thread.failure = error;
    });
    thread.worker.on('exit', (code) => {
      if (this.slots[slot] === thread) this.slots[slot] = undefined;
      const why = thread.failure?.message ?? `exit code ${code}`;
      for (const job of thread.jobs.values()) {
        if (this.closed) job.reject(new SigningError('The signing pool closed before the claim was signed.'));
        else if (job.attempts < ATTEMPTS) this.dispatch(job);
        else job.reject(new SigningError(`A signing thread stopped while signing (${why}).`));
      }
      thread.jobs.clear();
    });
    return thread;
  }
}
