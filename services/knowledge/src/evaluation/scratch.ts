/**
 * @module evaluation/scratch
 * A throw-away knowledge base for an evaluation: a fresh SQLite knowledge database
 * in a temporary folder, opened as the service opens its own (sqlite-vec loaded,
 * migrated, the index assembled from the knowledge settings), holding one
 * organization whose documents are all approved. Documents go in the way an
 * approval indexes a revision (`prepare` outside the transaction, `put` inside),
 * many per transaction. `close` deletes the folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, migrate, newId, openDatabase, transaction } from '@xv/platform';
import type { KnowledgeDatabase, KnowledgeTables } from '../db.js';
import { contentHash } from '../documents/hash.js';
import { migrations } from '../migrations/index.js';
import type { KnowledgeIndex, PreparedRevision, RetrievalMode } from '../search/knowledge-index.js';
import { openKnowledgeIndex } from '../search/open-index.js';
import { loadVectorExtension } from '../search/vector-index.js';
import type { KnowledgeSettings } from '../settings.js';
import type { CorpusEntry } from './beir.js';

const ORG = 'org_evaluation';
const MAKER = { id: 'usr_evaluation', email: 'evaluation@localhost' };
/** Documents embedded at once: a remote embedder answers several requests in parallel. */
const EMBEDDING_CONCURRENCY = 8;

export class ScratchKnowledgeBase {
  /** Corpus ids by XV document id. */
  private readonly corpusIds = new Map<string, string>();

  private constructor(
    private readonly folder: string,
    private readonly database: KnowledgeDatabase,
    readonly index: KnowledgeIndex,
  ) {}

  static async open(config: KnowledgeSettings): Promise<ScratchKnowledgeBase> {
    const folder = await mkdtemp(join(tmpdir(), 'xv-kb-eval-'));
    let database: KnowledgeDatabase | undefined;
    try {
      database = await openDatabase<KnowledgeTables>({ service: 'knowledge', dataDir: folder });
      loadVectorExtension(database);
      await migrate(database, migrations);
      const index = await openKnowledgeIndex(database, config, createLogger('knowledge', 'error'));
      return new ScratchKnowledgeBase(folder, database, index);
    } catch (error) {
      await database?.close();
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }

  get documents(): number {
    return this.corpusIds.size;
  }

  /** Adds entries as approved documents, indexed in one transaction. */
  async add(entries: readonly CorpusEntry[]): Promise<void> {
    const prepared: { entry: CorpusEntry; title: string; revision: PreparedRevision }[] = [];
    for (let i = 0; i < entries.length; i += EMBEDDING_CONCURRENCY) {
      const group = entries.slice(i, i + EMBEDDING_CONCURRENCY);
      prepared.push(
        ...(await Promise.all(
          group.map(async (entry) => {
            const title = entry.title.trim() || entry.id;
            return { entry, title, revision: await this.index.prepare(title, entry.text) };
          }),
        )),
      );
    }
    const added: [string, string][] = [];
    await transaction(this.database, async (trx) => {
      const now = Date.now();
      for (const { entry, title, revision } of prepared) {
        const documentId = newId('doc');
        const revisionId = newId('rev');
        await trx
          .insertInto('documents')
          .values({
            id: documentId,
            org_id: ORG,
            path: `${entry.id}.md`,
            title,
            latest_revision_id: revisionId,
            live_revision_id: revisionId,
            submitted_hash: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await trx
          .insertInto('revisions')
          .values({
            id: revisionId,
            org_id: ORG,
            document_id: documentId,
            number: 1,
            kind: 'content',
            state: 'approved',
            title,
            content: entry.text,
            hash: contentHash(entry.text),
            maker_id: MAKER.id,
            maker_email: MAKER.email,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await this.index.put(trx, { orgId: ORG, documentId, revisionId, title }, revision);
        added.push([documentId, entry.id]);
      }
    });
    for (const [documentId, corpusId] of added) this.corpusIds.set(documentId, corpusId);
  }

  /** The corpus ids of the best `topK` documents for a question, each once, best first. */
  async search(question: string, mode: RetrievalMode, topK: number): Promise<string[]> {
    const hits = await this.index.search(ORG, question, topK, mode);
    const found = new Set<string>();
    for (const hit of hits) {
      const corpusId = this.corpusIds.get(hit.docId);
      if (corpusId !== undefined) found.add(corpusId);
    }
    return [...found].slice(0, topK);
  }

  /** Closes the database and deletes the folder. */
  async close(): Promise<void> {
    try {
      await this.database.close();
    } finally {
      await rm(this.folder, { recursive: true, force: true });
    }
  }
}
