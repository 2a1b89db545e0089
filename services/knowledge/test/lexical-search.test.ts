/**
 * The FTS5 query on SQLite: organizations stay apart whichever way the query
 * narrows to one (inside FTS5 for an organization with a small part of the
 * index, by a filter after ranking for one with most of it), the organization
 * column is never matched by the question's words, and common words leave a
 * large organization's query (forced on here for a small index) by document
 * frequencies that follow the index generation.
 */
import { createLogger, loadSettings, migrate, openDatabase } from '@xv/platform';
import { type DatabaseTarget, describeEachDatabase, tempDir } from '@xv/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { KnowledgeDatabase, KnowledgeTables } from '../src/db.js';
import { ReviewWorkflow } from '../src/documents/review.js';
import { migrations } from '../src/migrations/index.js';
import type { KnowledgeIndex } from '../src/search/knowledge-index.js';
import { openKnowledgeIndex, type SearchTuning } from '../src/search/open-index.js';
import { parseQuery } from '../src/search/ranking.js';
import { loadVectorExtension } from '../src/search/vector-index.js';
import { knowledgeSettings } from '../src/settings.js';
import { approveThroughDomain } from './helpers.js';

const BIG = 'org_big';
const SMALL = 'org_small';
const TOPICS =
  'travel security leave expenses laptops payroll visitors incidents parking printing mail keys'.split(' ');

const opened: KnowledgeDatabase[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

async function setUp(tuning: SearchTuning = {}) {
  const database = await openDatabase<KnowledgeTables>({ service: 'knowledge', dataDir: tempDir() });
  opened.push(database);
  return indexOn(database as unknown as KnowledgeDatabase, tuning);
}

async function setUpOn(target: DatabaseTarget, tuning: SearchTuning = {}) {
  const database = (await target.open<KnowledgeTables>('knowledge')) as unknown as KnowledgeDatabase;
  return indexOn(database, tuning);
}

/** Migrates `database` and opens the knowledge index on it, with a way to approve documents. */
async function indexOn(database: KnowledgeDatabase, tuning: SearchTuning) {
  loadVectorExtension(database);
  await migrate(database, migrations);
  const index = await openKnowledgeIndex(
    database,
    loadSettings(knowledgeSettings, {}),
    createLogger('kb', 'silent'),
    tuning,
  );
  const store = new ReviewWorkflow(database, index);
  const approve = (orgId: string, path: string, content: string) =>
    approveThroughDomain(store, orgId, path, content);
  return { database, index, approve };
}

async function lexical(index: KnowledgeIndex, database: KnowledgeDatabase, orgId: string, query: string) {
  const words = [...parseQuery(query).terms.values()].flatMap((t) => t.words);
  return index.lexical.candidates(database.kysely, orgId, words, 50, await index.version());
}

describe('lexical search (SQLite FTS5)', () => {
  it('keeps organizations apart, whether FTS5 or a filter after ranking narrows to one', async () => {
    const { database, index, approve } = await setUp();
    for (const topic of TOPICS) await approve(BIG, `${topic}.md`, `The ${topic} policy of the big company.`);
    await approve(SMALL, 'travel.md', 'The travel policy of the small company.');
    // org_small holds 1 chunk in 13 (matched inside FTS5), org_big 12 (filtered after ranking).
    const small = await index.search(SMALL, 'travel policy', 50, 'lexical');
    expect(small.map((h) => h.text)).toEqual(['The travel policy of the small company.']);
    const big = await index.search(BIG, 'travel policy', 50, 'lexical');
    expect(big).toHaveLength(TOPICS.length);
    expect(big[0]!.text).toBe('The travel policy of the big company.');
    expect(big.map((h) => h.text).join('\n')).not.toContain('small');
    expect((await lexical(index, database, SMALL, 'policy')).length).toBe(1);
  });

  it('never matches the words of the organization id', async () => {
    const { index, approve } = await setUp();
    await approve(BIG, 'travel.md', 'The travel policy.');
    await approve(BIG, 'leave.md', 'The leave policy.');
    expect(await index.search(BIG, 'org big', 5, 'lexical')).toEqual([]);
  });
});

// PostgreSQL ranks every matching row (ts_rank_cd): common words would make that most of the organization.
describeEachDatabase('lexical candidates of a large organization', (target) => {
  it('leaves common words out of a large organization’s query, by frequencies of the current generation', async () => {
    const { database, index, approve } = await setUpOn(target, { pruneFrom: 0, commonShare: 0.5 });
    for (const topic of TOPICS) await approve(BIG, `${topic}.md`, `The ${topic} policy.`);
    await approve(BIG, 'canteen.md', 'Lunch in the canteen.');
    // "policy" is in 12 chunks of 13: only "canteen" is matched.
    expect(await lexical(index, database, BIG, 'policy canteen')).toHaveLength(1);
    // When every word is common, the rarest one stays.
    expect(await lexical(index, database, BIG, 'policy')).toHaveLength(TOPICS.length);
    // With the common words kept (an index below pruneFrom), both match.
    const { database: whole, index: wholeIndex, approve: approveWhole } = await setUpOn(target);
    for (const topic of TOPICS) await approveWhole(BIG, `${topic}.md`, `The ${topic} policy.`);
    await approveWhole(BIG, 'canteen.md', 'Lunch in the canteen.');
    expect(await lexical(wholeIndex, whole, BIG, 'policy canteen')).toHaveLength(TOPICS.length + 1);

    // Twelve more chunks without "policy": it is in 12 of 25, no longer common.
    for (const topic of TOPICS) await approve(BIG, `more/${topic}.md`, `More about ${topic}.`);
    expect(await lexical(index, database, BIG, 'policy canteen')).toHaveLength(TOPICS.length + 1);
  });
});
