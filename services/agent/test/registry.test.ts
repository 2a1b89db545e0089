import { migrate } from '@xv/platform';
import { describeEachDatabase } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { migrations } from '../src/migrations/index.js';
import { SessionRegistry } from '../src/sessions/registry.js';
import { SessionStore } from '../src/sessions/store.js';

const options = { maxActors: 3, idleMs: 60_000, windowSize: 20, leaseMs: 30_000, waitMs: 5_000 };

describeEachDatabase('session objects in memory', (target) => {
  let store: SessionStore;

  beforeAll(async () => {
    const database = await target.open('agent');
    await migrate(database, migrations);
    store = new SessionStore(database);
  });

  it('keeps one object per session and lets idle ones go after the idle time', async () => {
    const registry = new SessionRegistry(store, options);
    const actor = registry.get('idle-a');
    expect(registry.get('idle-a')).toBe(actor);
    registry.sweep(Date.now() + options.idleMs - 1_000);
    expect(registry.size).toBe(1);
    registry.sweep(Date.now() + options.idleMs + 1_000);
    expect(registry.size).toBe(0);
    expect(registry.get('idle-a')).not.toBe(actor);
    registry.close();
  });

  it('never lets a busy object go, by idle time or by overflow', async () => {
    const registry = new SessionRegistry(store, options);
    const busy = registry.get('busy-a');
    const turn = await busy.acquire();
    registry.sweep(Date.now() + 10 * options.idleMs);
    for (const id of ['busy-b', 'busy-c', 'busy-d', 'busy-e']) registry.get(id);
    expect(registry.size).toBe(options.maxActors);
    expect(registry.get('busy-a')).toBe(busy);
    await turn.release();
    registry.close();
  });

  it('drops the least recently used idle object when full', () => {
    const registry = new SessionRegistry(store, options);
    const [a, b] = [registry.get('lru-a'), registry.get('lru-b')];
    registry.get('lru-c');
    registry.get('lru-a'); // a is now more recent than b
    registry.get('lru-d');
    expect(registry.get('lru-a')).toBe(a);
    expect(registry.get('lru-b')).not.toBe(b);
    registry.close();
  });
});
