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

  it.runIf(target.dialect === 'postgres')(
    'misses no change whose transaction began first and committed last',
    async () => {
      // Four candidates re-ranked: the answer depends on the memory copy being current.
      const { database, index, vectors } = await open({ rerankMin: 4, rerankFactor: 1 });
      const [query] = await index.embedder.embed(['lunch is served from noon to two']);
      await vectors.nearest(ORG, query!, 3, 'g1');
      const store = new ReviewWorkflow(database, index);
      // The first transaction indexes the canteen page (its chunk id and log row drawn now) and holds on…
      const canteen = 'Canteen: lunch is served from noon to two, soup and salad every day.';
      const prepared = await index.prepare('Canteen', canteen);
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let indexed!: () => void;
      const written = new Promise<void>((resolve) => {
        indexed = resolve;
      });
      const first = database.kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto('documents')
          .values({
            id: 'doc_late',
            org_id: ORG,
            path: 'canteen.md',
            title: 'Canteen',
            latest_revision_id: 'rev_late',
            live_revision_id: 'rev_late',
            submitted_hash: null,
            created_at: 0,
            updated_at: 0,
          })
          .execute();
        await trx
          .insertInto('revisions')
          .values({
            id: 'rev_late',
            org_id: ORG,
            document_id: 'doc_late',
            number: 1,
            kind: 'content',
            state: 'approved',
            title: 'Canteen',
            content: canteen,
            hash: '',
            maker_id: 'usr_maker',
            maker_email: 'maker@x.test',
            created_at: 0,
            updated_at: 0,
          })
          .execute();
        await index.put(
          trx,
          { orgId: ORG, documentId: 'doc_late', revisionId: 'rev_late', title: 'Canteen' },
          prepared,
        );
        indexed();
        await held;
      });
      await written;
      // …while a second approval runs, and a search looks meanwhile.
      const second = approveThroughDomain(store, ORG, 'parking.md', 'Parking: the garage opens at seven.');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await index.search(ORG, 'lunch served noon', 3);
      release();
      await first;
      await second;
      const found = await vectors.nearest(ORG, query!, 3, (await index.version()).generation);
      const texts = await database.kysely
        .selectFrom('chunks')
        .select(['id', 'text'])
        .where(
          'id',
          'in',
          found.map((n) => n.chunkId),
        )
        .execute();
      expect(texts.map((t) => t.text)).toContain(canteen);
      expect(vectors.approximate.size).toBe(TOPICS.length + 2);
    },
  );

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
