/**
 * What a searching instance keeps in memory after approvals and retirements made
 * by another instance (the lexical counts, the approximate index's vectors) is
 * brought forward from the change log: it must equal what a freshly started
 * instance counts and finds, also when the log was trimmed past the instance.
 */
import { createLogger, loadSettings, migrate } from '@xv/platform';
import { describeEachDatabase } from '@xv/platform/testing';
import { expect, it } from 'vitest';
import type { KnowledgeDatabase, KnowledgeTables } from '../src/db.js';
import { ReviewWorkflow } from '../src/documents/review.js';
import { migrations } from '../src/migrations/index.js';
import { ChangeLog } from '../src/search/change-log.js';
import { CorpusStatistics } from '../src/search/corpus-statistics.js';
import { openKnowledgeIndex, type SearchTuning } from '../src/search/open-index.js';
import { loadVectorExtension } from '../src/search/vector-index.js';
import { knowledgeSettings } from '../src/settings.js';
import { approveThroughDomain, domainCaller } from './helpers.js';

const ORG = 'org_log';
const WORDS = ['travel', 'password', 'lunch', 'the', 'policy', 'parking'];
const QUESTIONS = ['travel policy for flights', 'password rules', 'when is lunch', 'parking garage'];

describeEachDatabase('change log', (target) => {
  async function instance(database: KnowledgeDatabase, tuning: SearchTuning = {}) {
    const index = await openKnowledgeIndex(
      database,
      loadSettings(knowledgeSettings, { XV_KB_VECTOR_BACKEND: 'scan' }),
      createLogger('kb', 'silent'),
      { approximateFrom: 1, pruneFrom: 1, ...tuning },
    );
    return { index, store: new ReviewWorkflow(database, index) };
  }

  async function open() {
    const database = (await target.open<KnowledgeTables>('knowledge')) as unknown as KnowledgeDatabase;
    loadVectorExtension(database);
    await migrate(database, migrations);
    return database;
  }

  /** The reader's figures and answers, next to those of an instance that starts now. */
  async function compare(database: KnowledgeDatabase, reader: Awaited<ReturnType<typeof instance>>) {
    const answers = async (index: typeof reader.index) => {
      const out = [];
      for (const q of QUESTIONS) out.push(await index.search(ORG, q, 5));
      return out;
    };
    const kept = await answers(reader.index);
    const fresh = await instance(database);
    expect(kept).toEqual(await answers(fresh.index));
    const version = await reader.index.version();
    const counted = new CorpusStatistics(database.dialect);
    const figures = async (statistics: CorpusStatistics) => ({
      lengths: await statistics.lengths(database.kysely, ORG, version),
      total: await statistics.passages(database.kysely, '', version),
      words: await Promise.all(WORDS.map((w) => statistics.frequency(database.kysely, ORG, w, version))),
    });
    expect(await figures(reader.index.lexical.counts)).toEqual(await figures(counted));
  }

  it('keeps counts and vectors equal to a fresh count through approvals, replacements and retirements', async () => {
    const database = await open();
    const writer = await instance(database);
    const reader = await instance(database);
    const approve = (path: string, text: string) => approveThroughDomain(writer.store, ORG, path, text);
    await approve('travel.md', 'Travel: the travel policy books economy class for flights.');
    await approve('security.md', 'Security: the password policy asks for a new password every ninety days.');
    await compare(database, reader);
    await approve('canteen.md', 'Canteen: lunch is served from noon to two.');
    await approveThroughDomain(writer.store, 'org_other', 'other.md', 'Other travel policies count apart.');
    await compare(database, reader);
    await approve('security.md', 'Security: passkeys replace the password on every device.');
    await compare(database, reader);
    const { docId } = await writer.store.retire(domainCaller('usr_maker', ORG), 'canteen.md');
    await writer.store.decide(domainCaller('usr_checker', ORG), docId, 'approve');
    await approve('parking.md', 'Parking: the garage opens at seven; travel by bike is welcome.');
    await compare(database, reader);
  });

  it('counts again when the log was trimmed past what an instance applied', async () => {
    const database = await open();
    const writer = await instance(database, { changesKept: 1 });
    const reader = await instance(database);
    await approveThroughDomain(writer.store, ORG, 'travel.md', 'Travel: the travel policy for flights.');
    await compare(database, reader);
    for (const [i, text] of [
      'Lunch is served at noon.',
      'Parking opens at seven.',
      'Password policy.',
    ].entries())
      await approveThroughDomain(writer.store, ORG, `page-${i}.md`, text);
    const rows = await database.kysely.selectFrom('chunk_changes').select('seq').execute();
    expect(rows).toHaveLength(1);
    await compare(database, reader);
  });

  it.runIf(target.dialect === 'postgres')(
    'orders rows by commit: a reader never steps over a row that commits after a later one was drawn',
    async () => {
      const database = await open();
      const { store } = await instance(database);
      for (const path of ['a.md', 'b.md']) await approveThroughDomain(store, ORG, path, `Page ${path}.`);
      const [early, late] = (
        await database.kysely.selectFrom('chunks').select('id').orderBy('id').execute()
      ).map((r) => Number(r.id));
      const log = new ChangeLog('postgres');
      const { version } = await log.read(database.kysely, ORG, 0);
      let seen = version.changes;
      // The first writer logs its chunk and holds on; the second logs another and commits.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let logged!: () => void;
      const written = new Promise<void>((resolve) => {
        logged = resolve;
      });
      const first = database.kysely.transaction().execute(async (trx) => {
        await log.recordAdded(trx, [early!]);
        logged();
        await held;
      });
      await written;
      const second = database.kysely.transaction().execute((trx) => log.recordAdded(trx, [late!]));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The second has drawn no number yet: it waits for the first to commit (else it could commit first).
      const drawn = async () =>
        Number(
          (
            await database.pool!.query(
              "select last_value from pg_sequences where schemaname = current_schema() and sequencename = 'chunk_changes_seq_seq'",
            )
          ).rows[0].last_value,
        );
      expect(await drawn()).toBe(seen + 1);
      // A reader looks while the first has not committed: whatever it sees, it must not skip the first later.
      const meanwhile = await log.read(database.kysely, ORG, seen);
      const found = meanwhile.changes.map((c) => c.chunkId);
      seen = meanwhile.version.changes;
      release();
      await first;
      await second;
      const after = await log.read(database.kysely, ORG, seen);
      found.push(...after.changes.map((c) => c.chunkId));
      expect(found.sort()).toEqual([early, late].sort());
    },
  );
});
