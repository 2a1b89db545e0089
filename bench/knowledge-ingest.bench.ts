/**
 * Knowledge base ingest-and-index throughput on SQLite, in documents per second:
 * the whole Maker-Checker path of the service (push, submit, approve with
 * chunking, offline embedding, FTS5 and sqlite-vec indexing, each in its own
 * transaction) for a few hundred Markdown documents of about 1.5 KB. Called
 * in-process (no HTTP); the approve step alone is reported too, and so is the
 * embedder alone as the baseline the index adds to.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Database, loadSettings, migrate, openDatabase } from '@xv/platform';
import type { Caller } from '../services/knowledge/src/access/caller.js';
import type { KnowledgeDatabase } from '../services/knowledge/src/db.js';
import { contentHash } from '../services/knowledge/src/documents/hash.js';
import { ReviewWorkflow } from '../services/knowledge/src/documents/review.js';
import { migrations } from '../services/knowledge/src/migrations/index.js';
import { chunkMarkdown } from '../services/knowledge/src/search/chunker.js';
import { openKnowledgeIndex } from '../services/knowledge/src/search/open-index.js';
import { loadVectorExtension } from '../services/knowledge/src/search/vector-index.js';
import { knowledgeSettings } from '../services/knowledge/src/settings.js';
import { defineBenchmark, round } from './lib/harness.js';

const DOCUMENTS = 400;
const TOPICS =
  'invoice payment supplier contract renewal discount budget travel hotel leave salary refund shipping security password laptop backup incident release audit privacy training onboarding'.split(
    ' ',
  );

function markdownDocument(n: number): string {
  const pick = (i: number) => TOPICS[(n * 7 + i * 13) % TOPICS.length]!;
  const sections = Array.from(
    { length: 6 },
    (_, s) =>
      `## ${pick(s)} rules ${s}\n\nThe ${pick(s)} process for team ${n} requires approval from the ${pick(s + 1)} owner. ` +
      `Submit requests through the portal within ${5 + s} working days; the ${pick(s + 2)} desk answers within two days. ` +
      `Exceptions for the ${pick(s + 3)} budget need written sign-off and are reviewed every quarter.`,
  );
  return `# Handbook page ${n}\n\n${sections.join('\n\n')}\n`;
}

const person = (userId: string): Caller => ({
  userId,
  email: `${userId}@bench.test`,
  orgId: 'org_bench',
  via: 'session',
  scopes: ['sync'],
  permissions: ['review:decide'],
});

export default defineBenchmark({
  name: 'knowledge-ingest',
  description:
    'documents/s through push, submit and approve (chunk, embed, FTS5 + sqlite-vec index) on SQLite',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'xv-bench-kb-ingest-'));
    const opened = await openDatabase({ service: 'knowledge', dataDir: dir });
    try {
      loadVectorExtension(opened);
      await migrate(opened as Database, migrations);
      const database = opened as unknown as KnowledgeDatabase;
      const index = await openKnowledgeIndex(
        database,
        loadSettings(knowledgeSettings, {}),
        createLogger('kb', 'silent'),
      );
      const store = new ReviewWorkflow(database, index);
      const contents = Array.from({ length: DOCUMENTS }, (_, n) => markdownDocument(n));

      // Baseline: chunking and embedding alone, no database.
      let started = performance.now();
      let chunks = 0;
      for (const content of contents) {
        const pieces = chunkMarkdown(content);
        chunks += pieces.length;
        await index.embedder.embed(pieces.map((c) => c.text));
      }
      const embedSeconds = (performance.now() - started) / 1000;

      started = performance.now();
      const ids: string[] = [];
      for (const [n, content] of contents.entries()) {
        const { docId } = await store.push(person('usr_maker'), {
          path: `handbook/${n}.md`,
          content,
          hash: contentHash(content),
        });
        await store.submit(person('usr_maker'), docId);
        ids.push(docId);
      }
      const stageSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      for (const docId of ids) await store.decide(person('usr_checker'), docId, 'approve');
      const approveSeconds = (performance.now() - started) / 1000;

      const total = stageSeconds + approveSeconds;
      return {
        documents: DOCUMENTS,
        chunks,
        ingestAndIndexDocsPerSecond: round(DOCUMENTS / total),
        approveAndIndexDocsPerSecond: round(DOCUMENTS / approveSeconds),
        pushAndSubmitDocsPerSecond: round(DOCUMENTS / stageSeconds),
        chunkAndEmbedOnlyDocsPerSecond: round(DOCUMENTS / embedSeconds),
        indexOverheadRatio: round(approveSeconds / embedSeconds),
      };
    } finally {
      await opened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
