/**
 * Documents stored before decisions named their revision (`0003_review_revisions`):
 * one waiting for review is decided on as it was submitted, a change made after
 * the upgrade is still refused, the old steps of the audit trail get the hash they
 * acted on, and a pending retirement is named by the hash of its empty content.
 */
import { createLogger, loadSettings, migrate } from '@xv/platform';
import { describeEachDatabase } from '@xv/platform/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { KnowledgeDatabase, KnowledgeTables } from '../src/db.js';
import { contentHash, RETIREMENT_HASH } from '../src/documents/hash.js';
import { DocumentReader } from '../src/documents/read-model.js';
import { ReviewWorkflow } from '../src/documents/review.js';
import { knowledgeBase } from '../src/migrations/0001_knowledge_base.js';
import { publicDocuments } from '../src/migrations/0002_public_documents.js';
import { migrations } from '../src/migrations/index.js';
import { openKnowledgeIndex } from '../src/search/open-index.js';
import { loadVectorExtension } from '../src/search/vector-index.js';
import { knowledgeSettings } from '../src/settings.js';
import { domainCaller } from './helpers.js';

const ORG = 'org_old';
const maker = domainCaller('usr_maker', ORG);
const checker = domainCaller('usr_checker', ORG);

describeEachDatabase('review decisions on documents from before revisions were named', (target) => {
  it('a document under review before the upgrade is decided on as submitted, and a later change is refused', async () => {
    const database = await target.open<KnowledgeTables>('knowledge');
    const knowledge: KnowledgeDatabase = database;
    loadVectorExtension(database);
    await migrate(database, {
      '0001_knowledge_base': knowledgeBase,
      '0002_public_documents': publicDocuments,
    });
    const db = database.kysely;
    const now = Date.now();
    const submitted = '# Old\n\nSubmitted before the upgrade.';
    const old = async (doc: string, revision: string, kind: string, content: string, hash: string) => {
      await sql`insert into documents (id, org_id, path, title, latest_revision_id, live_revision_id, created_at, updated_at)
        values (${doc}, ${ORG}, ${`${doc}.md`}, 'Old', ${revision}, null, ${now}, ${now})`.execute(db);
      await sql`insert into revisions (id, org_id, document_id, number, kind, state, title, content, hash, maker_id, maker_email, created_at, updated_at)
        values (${revision}, ${ORG}, ${doc}, 1, ${kind}, 'under_review', 'Old', ${content}, ${hash}, 'usr_maker', 'maker@example.test', ${now}, ${now})`.execute(
        db,
      );
      for (const [n, action] of ['push', 'submit'].entries())
        await sql`insert into review_events (id, org_id, document_id, revision_id, action, actor_id, actor_email, note, at)
          values (${`evt_${doc}_${n}`}, ${ORG}, ${doc}, ${revision}, ${action}, 'usr_maker', 'maker@example.test', null, ${now + n})`.execute(
          db,
        );
    };
    await old('doc_content', 'rev_content', 'content', submitted, contentHash(submitted));
    await old('doc_retirement', 'rev_retirement', 'retirement', '', '');

    await migrate(database, migrations);
    const index = await openKnowledgeIndex(
      knowledge,
      loadSettings(knowledgeSettings, {}),
      createLogger('kb', 'silent'),
    );
    const store = new ReviewWorkflow(knowledge, index);
    const reader = new DocumentReader(knowledge);
    const history = (await reader.detail(ORG, 'doc_content')).history;
    expect(history.map((h) => [h.action, h.hash])).toEqual([
      ['submit', contentHash(submitted)],
      ['push', null],
    ]);
    const retirement = await reader.detail(ORG, 'doc_retirement');
    expect(retirement.hash).toBe(RETIREMENT_HASH);

    // After the upgrade the maker replaces the submitted text: deciding without a revision is refused.
    const changed = '# Old\n\nChanged after the upgrade.';
    await store.push(maker, { path: 'doc_content.md', content: changed, hash: contentHash(changed) });
    await store.submit(maker, 'doc_content');
    await expect(store.decide(checker, 'doc_content', 'approve')).rejects.toMatchObject({
      code: 'revision_changed',
      extra: { revision: contentHash(changed) },
    });
    expect(await store.decide(checker, 'doc_retirement', 'approve', undefined, RETIREMENT_HASH)).toBe(
      'retired',
    );
  });
});
