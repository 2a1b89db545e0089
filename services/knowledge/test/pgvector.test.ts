/**
 * The pgvector backend on PGlite with the bundled `vector` extension: the
 * service detects the extension, indexes approved documents into an HNSW-indexed
 * `vector` column, keeps organizations apart, agrees with the exact scan, and
 * rebuilds on reindex.
 */
import { createLogger, loadSettings, migrate } from '@xv/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewWorkflow } from '../src/documents/review.js';
import { migrations } from '../src/migrations/index.js';
import type { KnowledgeIndex } from '../src/search/knowledge-index.js';
import { openKnowledgeIndex } from '../src/search/open-index.js';
import { ScanIndex } from '../src/search/vector-index.js';
import { knowledgeSettings } from '../src/settings.js';
import { approveThroughDomain } from './helpers.js';
import { openPgliteDatabase } from './pglite.js';

const config = loadSettings(knowledgeSettings, {});
const logger = createLogger('knowledge', 'silent');

describe('pgvector backend (PGlite)', () => {
  let database: Awaited<ReturnType<typeof openPgliteDatabase>>;
  let index: KnowledgeIndex;

  const approve = (orgId: string, path: string, content: string) =>
    approveThroughDomain(new ReviewWorkflow(database, index), orgId, path, content);

  beforeAll(async () => {
    database = await openPgliteDatabase();
    await migrate(database, migrations);
    index = await openKnowledgeIndex(database, config, logger);
    await approve('org_a', 'travel.md', '# Travel policy\n\nBook economy class for flights under six hours.');
    await approve('org_a', 'security.md', '# Security\n\nRotate your password every ninety days.');
    await approve('org_b', 'travel.md', '# Travel at B\n\nBusiness class for every flight at Org B.');
  });
  afterAll(async () => {
    await database.close();
  });

  it('detects the extension and stores vectors in an HNSW-indexed column', async () => {
    expect(index.vectors.backend).toBe('pgvector');
    const indexes = await database.pglite.query<{ indexdef: string }>(
      "select indexdef from pg_indexes where tablename = 'chunk_vectors'",
    );
    expect(indexes.rows.map((r) => r.indexdef).join('\n')).toMatch(
      /USING hnsw \(embedding .*vector_cosine_ops\)/,
    );
    const count = await database.pglite.query<{ n: number }>('select count(*)::int as n from chunk_vectors');
    expect(count.rows[0]!.n).toBe(3);
  });

  it('finds by meaning within one organization only', async () => {
    const hits = await index.search('org_a', 'which class should I fly', 5, 'vector');
    expect(hits[0]!.title).toBe('Travel policy');
    expect(hits.map((h) => h.title)).not.toContain('Travel at B');
  });

  it('ranks like an exact scan of the same vectors', async () => {
    const scan = new ScanIndex(database.kysely);
    const [query] = await index.embedder.embed(['password rotation rules']);
    const viaPgvector = await index.vectors.nearest('org_a', query!, 2, 'g');
    const viaScan = await scan.nearest('org_a', query!, 2, 'g');
    expect(viaPgvector.map((n) => n.chunkId)).toEqual(viaScan.map((n) => n.chunkId));
    for (const [i, n] of viaPgvector.entries()) expect(n.distance).toBeCloseTo(viaScan[i]!.distance, 4);
  });

  it('answers hybrid queries with the full-text half on tsvector', async () => {
    const hits = await index.search('org_a', 'economy flights', 5, 'lexical');
    expect(hits[0]!.title).toBe('Travel policy');
  });

  it('rebuilds everything on reindex', async () => {
    await database.pglite.query('delete from chunk_vectors');
    expect(await index.search('org_a', 'which class should I fly', 5, 'vector')).toEqual([]);
    const summary = await index.reindex();
    expect(summary).toMatchObject({ documents: 3, chunks: 3 });
    const hits = await index.search('org_a', 'which class should I fly', 5, 'vector');
    expect(hits[0]!.title).toBe('Travel policy');
  });
});
