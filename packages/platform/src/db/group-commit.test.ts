/**
 * Group commit: writes of one turn share a batch, and none is acknowledged
 * before the batch that holds it has been written; a write that fails does not
 * take the rest of its batch down with it.
 */
import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/** A batch writer whose batches finish only when the test says so. */
function heldWriter() {
  const batches: { items: readonly number[]; finish(): void; fail(error: Error): void }[] = [];
  const write = (items: readonly number[]) =>
    new Promise<number[]>((resolve, reject) => {
      batches.push({ items, finish: () => resolve(items.map((n) => n * 10)), fail: reject });
    });
  return { batches, write };
}

/** Two turns of the event loop: the queue schedules its next batch one turn after the last one settles. */
const turn = async () => {
  for (let i = 0; i < 2; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

/** Whether the promise has settled by now. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await turn();
  return done;
}

describe('group commit', () => {
  it('acknowledges the writes of one turn together, only once their batch is written', async () => {
    const writer = heldWriter();
    const queue = new GroupCommit(writer.write, { maxBatch: 100, maxInFlight: 1 });
    const writes = [1, 2, 3].map((n) => queue.write(n));
    await turn();
    expect(writer.batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    for (const write of writes) expect(await settled(write)).toBe(false);
    writer.batches[0]!.finish();
    expect(await Promise.all(writes)).toEqual([10, 20, 30]);
  });

  it('gathers the writes asked for while a batch is in flight into the next one', async () => {
    const writer = heldWriter();
    const queue = new GroupCommit(writer.write, { maxBatch: 2, maxInFlight: 1 });
    const first = queue.write(1);
    await turn();
    const later = [2, 3, 4].map((n) => queue.write(n));
    await turn();
    expect(writer.batches.map((b) => b.items)).toEqual([[1]]);
    writer.batches[0]!.finish();
    expect(await first).toBe(10);
    await turn();
    // At most maxBatch in one: the rest waits for the one after.
    expect(writer.batches.map((b) => b.items)).toEqual([[1], [2, 3]]);
    expect(await settled(later[2]!)).toBe(false);
    writer.batches[1]!.finish();
    await turn();
    writer.batches[2]!.finish();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it('tries each write of a failed batch alone, so only the bad one fails', async () => {
    const written: number[][] = [];
    const queue = new GroupCommit(
      async (items: readonly number[]) => {
        written.push([...items]);
        if (items.includes(2)) throw new Error('no 2');
        return items.map((n) => n * 10);
      },
      { maxBatch: 100, maxInFlight: 1 },
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => queue.write(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      10,
      'no 2',
      30,
    ]);
    expect(written).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('acknowledges nothing of a batch whose write fails', async () => {
    const writer = heldWriter();
    const queue = new GroupCommit(writer.write, { maxBatch: 100, maxInFlight: 1 });
    const write = queue.write(7);
    await turn();
    writer.batches[0]!.fail(new Error('disk full'));
    await expect(write).rejects.toThrow('disk full');
  });
});
