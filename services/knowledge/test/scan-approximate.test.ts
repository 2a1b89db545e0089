/**
 * The `scan` vector backend (PostgreSQL without pgvector) hands large
 * organizations to the approximate index, forced on here for small ones: it
 * answers like the exact scan, and follows changes even when a chunk with a
 * lower id commits after a higher one was read, as PostgreSQL's sequence allows.
 */
import { createLogger, loadSettings, migrate } from '@xv/platform';
import { describeEachDatabase } from '@xv/platform/testing';
import { expect, it } from 'vitest';
import type { KnowledgeDatabase, KnowledgeTables } from '../src/db.js';
import { ReviewWorkflow } from '../src/documents/review.js';
import { migrations } from '../src/migrations/index.js';
import { vectorToBytes } from '../src/search/embedder.js';
import { openKnowledgeIndex } from '../src/search/open-index.js';
import { loadVectorExtension, type ScanIndex } from '../src/search/vector-index.js';
import { knowledgeSettings } from '../src/settings.js';
import { approveThroughDomain } from './helpers.js';

const ORG = 'org_big';

const TOPICS = [
  'Travel: book economy class for flights under six hours and keep the boarding pass.',
  'Security: rotate your password every ninety days and lock the screen when away.',
  'Leave: annual leave is twenty-five days, requested through the portal two weeks ahead.',
  'Payroll: salaries are paid on the twenty-fifth; payslips arrive by e-mail.',
  'Incidents: report outages in the incident channel and page the on-call engineer.',
];

describeEachDatabase('scan backend, approximate for large organizations', (target) => {
  async function open(tuning = {}) {
    const database = (await target.open<KnowledgeTables>('knowledge')) as unknown as KnowledgeDatabase;
    loadVectorExtension(database);
    await migrate(database, migrations);
    const index = await openKnowledgeIndex(
      database,
      loadSettings(knowledgeSettings, { XV_KB_VECTOR_BACKEND: 'scan' }),
      createLogger('kb', 'silent'),
      { approximateFrom: 1, ...tuning },
    );
    // The first id is taken and left unused, for a transaction that commits late (below).
    await database.kysely
      .insertInto('chunks')
      .values({
        org_id: 'org_none',
        document_id: 'd',
        revision_id: 'r',
        ordinal: 0,
        heading_path: '',
        text: '',
        embedding: new Uint8Array(),
      })
      .execute();
    await database.kysely.deleteFrom('chunks').execute();
    const store = new ReviewWorkflow(database, index);
    for (const [i, topic] of TOPICS.entries()) await approveThroughDomain(store, ORG, `t-${i}.md`, topic);
    return { database, index, vectors: index.vectors as ScanIndex };
  }

  it('answers like the exact scan', async () => {
    const { index, vectors } = await open();
    expect(vectors.backend).toBe('scan');
    for (const q of ['which seat on a plane', 'my pay slip', 'password rules']) {
      const [query] = await index.embedder.embed([q]);
      const approximate = await vectors.nearest(ORG, query!, TOPICS.length, 'g1');
      const exact = await vectors.exactNearest(ORG, query!, TOPICS.length, 'g1');
      expect(approximate.map((n) => n.chunkId).sort()).toEqual(exact.map((n) => n.chunkId).sort());
      expect(approximate[0]!.chunkId).toBe(exact[0]!.chunkId);
    }
    expect(vectors.approximate.size).toBe(TOPICS.length);
  });

  it('follows a chunk that commits below the highest id read, in the same change as a removal', async () => {
    // Four candidates re-ranked: the answer depends on the memory copy being current.
    // On SQLite ids do commit in order; the listing that PostgreSQL needs is forced to test it there too.
    const inOrder = target.dialect === 'sqlite' ? { idsCommitInOrder: false } : {};
    const { database, index, vectors } = await open({ rerankMin: 4, rerankFactor: 1, ...inOrder });
    const [query] = await index.embedder.embed(['lunch is served from noon to two']);
    await vectors.nearest(ORG, query!, 3, 'g1');
    const ids = (await database.kysely.selectFrom('chunks').select('id').orderBy('id').execute()).map((r) =>
      Number(r.id),
    );
    // A transaction that took its id early commits now, while another chunk leaves: the count stays the same.
    const lateId = ids[0]! - 1;
    expect(lateId).toBeGreaterThan(0);
    const canteen = 'Canteen: lunch is served from noon to two, soup and salad every day.';
    const [vector] = await index.embedder.embed([canteen]);
    await database.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('chunks').where('id', '=', ids[1]!).execute();
      await trx
        .insertInto('chunks')
        .values({
          id: lateId,
          org_id: ORG,
          document_id: 'doc_late',
          revision_id: 'rev_late',
          ordinal: 0,
          heading_path: '',
          text: canteen,
          embedding: vectorToBytes(vector!),
        } as never)
        .execute();
    });
    const found = await vectors.nearest(ORG, query!, 3, 'g2');
    expect(found[0]!.chunkId).toBe(lateId);
    expect(found.map((n) => n.chunkId)).not.toContain(ids[1]);
    expect(vectors.approximate.size).toBe(TOPICS.length);
  });

  it.runIf(target.dialect === 'postgres')('reads an organization by id through one index', async () => {
    const { database } = await open();
    // Loading pages by id walk (org_id, id): with org_id alone each page sorted every later chunk.
    const { rows } = await database.pool!.query(
      "select indexdef from pg_indexes where tablename = 'chunks' and schemaname = current_schema()",
    );
    const definitions = rows.map((r: { indexdef: string }) => r.indexdef).join('\n');
    expect(definitions).toContain('(org_id, id)');
    expect(definitions).not.toMatch(/\(org_id\)/);
  });
});
