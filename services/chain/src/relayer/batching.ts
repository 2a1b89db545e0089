/**
 * @module relayer/batching
 * Batched anchors: a fingerprint joins the queue (`batch_leaves`); every
 * `batchIntervalMs`, or as soon as `batchMax` wait, one flush takes the nonce lock,
 * builds the Merkle tree of the pending fingerprints and anchors its root, recording
 * each leaf's path in the same database transaction: one transaction pays for the
 * whole batch, and a crash leaves the batch either fully recorded (the poller sends
 * it) or still queued.
 */
import { type Database, type Logger, transaction } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { Hex } from 'viem';
import { errors } from '../errors.js';
import type { Funds } from './funds.js';
import { batchTree } from './merkle.js';
import type { Nonces } from './nonces.js';
import type { Sender } from './sending.js';
import type { AnchorRow, BatchLeavesTable, ChainTables } from './tables.js';

/** How long an anchor request waits for its batch beyond the batch interval. */
const BATCH_WAIT_MS = 15_000;

/**
 * An anchor as a fingerprint sees it: the transaction's `anchor` (whose `ref` is the
 * hash the transaction carries, the batch root) and the `path` from `leaf` up to it
 * (empty when the fingerprint was anchored on its own).
 */
export interface AnchorOutcome {
  anchor: AnchorRow;
  created: boolean;
  leaf: Hex;
  path: Hex[];
}

export interface BatchOptions {
  batchIntervalMs: number;
  batchMax: number;
}

export class Batches {
  private flushing: Promise<void> | undefined;
  private readonly db: Kysely<ChainTables>;

  constructor(
    private readonly database: Database<ChainTables>,
    private readonly parts: { nonces: Nonces; sender: Sender; funds: Funds },
    private readonly options: BatchOptions,
    private readonly logger: Logger,
  ) {
    this.db = database.kysely;
  }

  private get chainId() {
    return this.parts.sender.chainId;
  }

  /** Queues `hash`; true when this call queued it (false: it was queued already). */
  async queue(hash: Hex): Promise<boolean> {
    const inserted = await this.db
      .insertInto('batch_leaves')
      .values({
        fingerprint: hash,
        chain_id: this.chainId,
        root: null,
        path: null,
        queued_at: Date.now(),
        batched_at: null,
      })
      .onConflict((conflict) => conflict.column('fingerprint').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Flushes now when the queue holds a full batch. */
  async flushIfFull(): Promise<void> {
    if ((await this.pendingCount()) >= this.options.batchMax) void this.flush();
  }

  /** Anchors the pending batch now; concurrent callers share one flush. */
  flush(): Promise<void> {
    this.flushing ??= this.parts.nonces
      .exclusive(() => this.flushOnce())
      .catch((error) => this.logger.warn({ err: error }, 'batch flush failed; the queue is kept'))
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  /** Resolves once a running flush is done. */
  async settled(): Promise<void> {
    await this.flushing;
  }

  private async flushOnce(): Promise<void> {
    const { nonces, sender, funds } = this.parts;
    if ((await this.pendingCount()) === 0 || !(await funds.funded())) return;
    const fees = await sender.currentFees();
    const now = Date.now();
    const rawTx = await transaction(this.database, async (db) => {
      // The nonce lock also makes flushes of several instances take turns: the second
      // one finds the leaves the first has just batched no longer pending.
      await nonces.lock(db);
      const pending = await db
        .selectFrom('batch_leaves')
        .select('fingerprint')
        .where('chain_id', '=', this.chainId)
        .where('root', 'is', null)
        .orderBy('queued_at')
        .orderBy('fingerprint')
        .limit(this.options.batchMax)
        .execute();
      if (pending.length === 0) return undefined;
      const fingerprints = pending.map((row) => row.fingerprint as Hex);
      // A fingerprint anchored on its own meanwhile keeps that anchor.
      const alone = await db
        .selectFrom('anchors')
        .select('ref')
        .where('chain_id', '=', this.chainId)
        .where('ref', 'in', fingerprints)
        .execute();
      for (const { ref } of alone) await placeLeaf(db, ref, ref, [], now);
      const leaves = fingerprints.filter((leaf) => !alone.some((row) => row.ref === leaf));
      if (leaves.length === 0) return undefined;
      const tree = batchTree(leaves);
      let raw: Hex | undefined;
      if (!(await sender.find(tree.root, db))) {
        const nonce = await nonces.take(db);
        const signed = await sender.sign(tree.root, nonce, fees);
        await db
          .insertInto('anchors')
          .values(sender.newAnchor(tree.root, nonce, signed.txHash, now))
          .execute();
        await sender.recordAttempt(db, tree.root, nonce, signed, fees, now);
        raw = signed.rawTx;
      }
      for (const leaf of leaves) await placeLeaf(db, leaf, tree.root, tree.paths.get(leaf) ?? [], now);
      this.logger.info({ root: tree.root, leaves: leaves.length }, 'batch anchored');
      return raw;
    });
    if (rawTx) await sender.broadcast(rawTx);
  }

  /** Waits for the flush (of this instance or another) that batches `hash`. */
  async awaitBatch(hash: Hex): Promise<AnchorOutcome> {
    const deadline = Date.now() + this.options.batchIntervalMs + BATCH_WAIT_MS;
    const pause = Math.min(50, Math.max(10, Math.floor(this.options.batchIntervalMs / 10)));
    for (;;) {
      const leaf = await this.leaf(hash);
      if (leaf?.root) {
        // The batch is committed before it is broadcast: answer once this instance's flush has sent it.
        await this.flushing;
        return this.leafOutcome(leaf, false);
      }
      if (this.parts.funds.knownLow) throw errors.relayer_low_balance();
      if (Date.now() > deadline) throw errors.batch_not_sent();
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  async leafOutcome(leaf: BatchLeavesTable, created: boolean): Promise<AnchorOutcome> {
    const anchor = await this.parts.sender.find(leaf.root as string);
    if (!anchor) throw new Error(`The batch root of ${leaf.fingerprint} has no anchor.`);
    return { anchor, created, leaf: leaf.fingerprint as Hex, path: JSON.parse(leaf.path ?? '[]') as Hex[] };
  }

  leaf(hash: string) {
    return this.db.selectFrom('batch_leaves').selectAll().where('fingerprint', '=', hash).executeTakeFirst();
  }

  /** How many fingerprints a batch whose Merkle root is `root` holds (0: not a batch's root). */
  async sizeOf(root: string): Promise<number> {
    const row = await this.db
      .selectFrom('batch_leaves')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('root', '=', root)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async pendingCount(): Promise<number> {
    const row = await this.db
      .selectFrom('batch_leaves')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('chain_id', '=', this.chainId)
      .where('root', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

function placeLeaf(db: Kysely<ChainTables>, leaf: string, root: string, path: string[], now: number) {
  return db
    .updateTable('batch_leaves')
    .set({ root, path: JSON.stringify(path), batched_at: now })
    .where('fingerprint', '=', leaf)
    .execute();
}
