/**
 * The approximate vector search of large organizations on SQLite (in memory,
 * int8, re-ranked exactly), forced on here for small ones: it agrees with
 * sqlite-vec's exact KNN, follows approvals, replacements, retirements and
 * reindexing made by its own instance or by another instance sharing the file,
 * starts again after a restart, and skips vectors an embedder of another
 * dimension wrote.
 */
import { createLogger, loadSettings, migrate, openDatabase } from '@xv/platform';
import { tempDir } from '@xv/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { KnowledgeDatabase, KnowledgeTables } from '../src/db.js';
import { contentHash } from '../src/documents/hash.js';
import { ReviewWorkflow } from '../src/documents/review.js';
import { migrations } from '../src/migrations/index.js';
import { openKnowledgeIndex, type SearchTuning } from '../src/search/open-index.js';
import { loadVectorExtension, type SqliteVecIndex } from '../src/search/vector-index.js';
import { knowledgeSettings } from '../src/settings.js';
import { approveThroughDomain, domainCaller } from './helpers.js';

const ORG = 'org_big';
const person = (userId: string) => domainCaller(userId, ORG);

const TOPICS = [
  'Travel: book economy class for flights under six hours and keep the boarding pass.',
  'Security: rotate your password every ninety days and lock the screen when away.',
  'Leave: annual leave is twenty-five days, requested through the portal two weeks ahead.',
  'Expenses: submit receipts within thirty days; meals abroad are capped per day.',
  'Laptops: devices are encrypted, backed up nightly and returned on the last day.',
  'Payroll: salaries are paid on the twenty-fifth; payslips arrive by e-mail.',
  'Visitors: guests sign in at reception, wear a badge and stay with their host.',
  'Incidents: report outages in the incident channel and page the on-call engineer.',
];

interface Instance {
  database: KnowledgeDatabase;
  store: ReviewWorkflow;
  index: Awaited<ReturnType<typeof openKnowledgeIndex>>;
  vectors: SqliteVecIndex;
}

const opened: KnowledgeDatabase[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

/** Every organization goes to the approximate index; `rerankMin` decides how approximate. */
async function instance(dataDir: string, tuning: SearchTuning = {}, env: Record<string, string> = {}) {
  const database = await openDatabase<KnowledgeTables>({ service: 'knowledge', dataDir });
  opened.push(database);
  loadVectorExtension(database);
  await migrate(database, migrations);
  const index = await openKnowledgeIndex(
    database,
    loadSettings(knowledgeSettings, env),
    createLogger('kb', 'silent'),
    { approximateFrom: 1, ...tuning },
  );
  const result: Instance = {
    database,
    index,
    store: new ReviewWorkflow(database, index),
    vectors: index.vectors as SqliteVecIndex,
  };
  return result;
}

function approve(at: Instance, path: string, content: string) {
  return approveThroughDomain(at.store, ORG, path, content);
}

async function retire(at: Instance, path: string) {
  const { docId } = await at.store.retire(person('usr_maker'), path);
  await at.store.decide(person('usr_checker'), docId, 'approve');
}

const chunkCount = async (at: Instance) =>
  Number(
    (
      await at.database.kysely
        .selectFrom('chunks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('org_id', '=', ORG)
        .executeTakeFirstOrThrow()
    ).n,
  );

const texts = async (at: Instance, query: string) =>
  (await at.index.search(ORG, query, 3, 'vector')).map((h) => h.text);

describe('approximate vector search (SQLite)', () => {
  it('answers like the exact KNN when every chunk is re-ranked', async () => {
    const at = await instance(tempDir());
    for (const [i, topic] of TOPICS.entries()) await approve(at, `topic-${i}.md`, `# Topic ${i}\n\n${topic}`);
    const state = await at.database.kysely
      .selectFrom('index_state')
      .select('value')
      .where('key', '=', 'generation')
      .executeTakeFirstOrThrow();
    for (const q of ['how many days of holiday', 'which seat on a plane', 'my pay slip', 'lost laptop']) {
      const [query] = await at.index.embedder.embed([q]);
      const approximate = await at.vectors.nearest(ORG, query!, TOPICS.length, state.value);
      const exact = await at.vectors.exactNearest(ORG, query!, TOPICS.length);
      // Same chunks at the same distances (chunks at equal distances may come in either order).
      expect(approximate.map((n) => n.chunkId).sort()).toEqual(exact.map((n) => n.chunkId).sort());
      for (const [i, n] of approximate.entries()) expect(n.distance).toBeCloseTo(exact[i]!.distance, 5);
      expect(approximate[0]!.chunkId).toBe(exact[0]!.chunkId);
    }
    expect(at.vectors.approximate.size).toBe(TOPICS.length);
  });

  it('follows changes made by another instance sharing the database, and starts again after a restart', async () => {
    const dataDir = tempDir();
    // A first pass that keeps only 4 candidates: each answer below depends on the memory copy being current.
    const tuning = { rerankMin: 4, rerankFactor: 1 };
    const writer = await instance(dataDir, tuning);
    const reader = await instance(dataDir, tuning);
    for (const [i, topic] of TOPICS.entries()) await approve(writer, `topic-${i}.md`, topic);
    expect((await texts(reader, 'rotate your password every ninety days'))[0]).toBe(TOPICS[1]);
    expect(reader.vectors.approximate.size).toBe(TOPICS.length);

    // A new document adds chunks (and nothing leaves)…
    const canteen = 'Canteen: lunch is served from noon to two, soup and salad every day.';
    await approve(writer, 'canteen.md', canteen);
    expect((await texts(reader, 'when is lunch served'))[0]).toBe(canteen);
    expect(reader.vectors.approximate.size).toBe(TOPICS.length + 1);

    // …an approval of a new revision replaces the old chunks.
    const rewritten = 'Security: passwords are replaced by passkeys on every company device.';
    await approve(writer, 'topic-1.md', rewritten);
    expect((await texts(reader, 'passkeys on every company device'))[0]).toBe(rewritten);
    expect(await texts(reader, 'rotate your password every ninety days')).not.toContain(TOPICS[1]);
    expect(reader.vectors.approximate.size).toBe(await chunkCount(reader));

    // A retirement takes the document out.
    await retire(writer, 'canteen.md');
    expect(await texts(reader, 'when is lunch served')).not.toContain(canteen);
    expect(reader.vectors.approximate.size).toBe(TOPICS.length);

    // A reindex replaces every chunk id.
    await writer.index.reindex();
    expect((await texts(reader, 'passkeys on every company device'))[0]).toBe(rewritten);
    expect(reader.vectors.approximate.size).toBe(TOPICS.length);

    const restarted = await instance(dataDir, tuning);
    expect((await texts(restarted, 'passkeys on every company device'))[0]).toBe(rewritten);
    expect((await texts(restarted, 'incident channel on-call engineer'))[0]).toBe(TOPICS[7]);
  });

  it('lets go of organizations nobody searched for a while', async () => {
    const at = await instance(tempDir(), { idleMs: 0 });
    await approve(at, 'travel.md', TOPICS[0]!);
    const other = { ...person('usr_maker'), orgId: 'org_other' };
    const { docId } = await at.store.push(other, {
      path: 'x.md',
      content: TOPICS[1]!,
      hash: contentHash(TOPICS[1]!),
    });
    await at.store.submit(other, docId);
    await at.store.decide({ ...other, userId: 'usr_checker' }, docId, 'approve');
    await texts(at, 'economy class');
    expect(at.vectors.approximate.size).toBe(1);
    expect((await at.index.search('org_other', 'password', 3, 'vector'))[0]!.text).toBe(TOPICS[1]);
    expect(at.vectors.approximate.size).toBe(1); // org_big left when org_other was searched
    expect((await texts(at, 'economy class'))[0]).toBe(TOPICS[0]); // and comes back when searched
  });

  it('leaves out chunks an embedder of another dimension wrote before a reindex', async () => {
    const dataDir = tempDir();
    const current = await instance(dataDir);
    for (const [i, topic] of TOPICS.entries()) await approve(current, `topic-${i}.md`, topic);
    await texts(current, 'anything'); // loaded
    // Another instance configured with 32 dimensions approves a document: its chunk keeps a 32-dimension vector.
    const other = await instance(dataDir, {}, { XV_KB_EMBEDDING_DIMENSIONS: '32' });
    await approve(other, 'canteen.md', 'Canteen: lunch is served from noon to two.');
    expect(await chunkCount(current)).toBe(TOPICS.length + 1);
    const hits = await texts(current, 'lunch is served from noon to two');
    expect(hits).toHaveLength(3);
    expect(hits.join('\n')).not.toContain('Canteen');
    expect(current.vectors.approximate.size).toBe(TOPICS.length);
    // The restarted instance loads the file from scratch and skips it too.
    const restarted = await instance(dataDir);
    expect((await texts(restarted, 'lunch is served from noon to two')).join('\n')).not.toContain('Canteen');
    // Lexical search still finds it.
    const lexical = await restarted.index.search(ORG, 'canteen lunch', 3, 'lexical');
    expect(lexical[0]!.text).toContain('Canteen');
  });
});
