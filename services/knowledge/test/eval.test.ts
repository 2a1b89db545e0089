/**
 * `xv kb eval` on a tiny BEIR collection written to a temporary folder: six
 * documents, four judged questions (one with graded judgements), evaluated in a
 * real scratch knowledge base (SQLite file, sqlite-vec, offline embedder) and
 * against the in-memory BM25 baseline; and the errors a broken collection gives.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempDir } from '@xv/platform/testing';
import { describe, expect, it } from 'vitest';
import {
  CollectionError,
  evaluateCollection,
  evaluationFailure,
  evaluationJson,
  formatEvaluation,
} from '../src/commands/eval.js';
import { Bm25Baseline, matchExpression } from '../src/evaluation/bm25-baseline.js';
import { OfflineEmbedder } from '../src/search/embedder.js';

const corpus = [
  {
    _id: 'leave',
    title: 'Annual leave',
    text: 'Every employee gets 25 days of annual leave per year. Request leave in the HR portal.',
    url: 'ignored',
  },
  {
    _id: 'expenses',
    title: 'Expense claims',
    text: 'Submit expense claims with their receipts within 30 days of the purchase.',
  },
  { _id: 'vpn', title: '', text: 'Use the VPN on public networks. Passwords are rotated every 90 days.' },
  { _id: 'parental', title: 'Parental leave', text: 'Parents receive sixteen weeks of paid parental leave.' },
  { _id: 'office', title: 'Office hours', text: 'The office opens at 8am and closes at 6pm on weekdays.' },
  {
    _id: 'commission',
    title: 'Sales commission',
    text: 'Sales staff earn a commission on closed deals, paid every quarter.',
  },
];

const queries = [
  { _id: 'q-leave', text: 'How many days of annual leave do I get?' },
  { _id: 'q-receipts', text: 'expense receipts' },
  { _id: 'q-vpn', text: 'VPN passwords' },
  { _id: 'q-parents', text: 'parental leave for parents' },
  { _id: 'q-unjudged', text: 'office hours' },
];

const qrels = [
  'query-id\tcorpus-id\tscore',
  'q-leave\tleave\t1',
  'q-receipts\texpenses\t1',
  'q-vpn\tvpn\t1',
  // Graded: the parental leave page answers best, the general leave page a little.
  'q-parents\tparental\t2',
  'q-parents\tleave\t1',
  'q-parents\toffice\t0',
  // Names a document and a question the collection lacks: warned about and skipped.
  'q-parents\tmissing-doc\t1',
  'q-missing\tleave\t1',
];

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

function writeCollection(files: { corpus?: string; queries?: string; qrels?: string | null } = {}) {
  const folder = tempDir('xv-beir-');
  writeFileSync(join(folder, 'corpus.jsonl'), files.corpus ?? jsonl(corpus));
  writeFileSync(join(folder, 'queries.jsonl'), files.queries ?? jsonl(queries));
  if (files.qrels !== null) {
    mkdirSync(join(folder, 'qrels'));
    writeFileSync(join(folder, 'qrels', 'test.tsv'), files.qrels ?? `${qrels.join('\n')}\n`);
  }
  return folder;
}

const scratchFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('xv-kb-eval-'));

describe('xv kb eval', () => {
  it('measures every mode and the baseline on a collection', async () => {
    const before = scratchFolders();
    const report = await evaluateCollection(writeCollection(), {}, {});
    expect(report.documents).toBe(6);
    expect(report.queries).toBe(4);
    expect(report.split).toBe('test');
    expect(report.embedder).toMatch(/^offline-hash/);
    for (const method of ['bm25', 'lexical', 'vector', 'hybrid'] as const) {
      const result = report.methods[method];
      for (const value of [result.ndcgAt10, result.mrrAt10, result.recallAt100]) {
        expect(value, method).toBeGreaterThanOrEqual(0);
        expect(value, method).toBeLessThanOrEqual(1);
      }
      expect(result.p50Ms).toBeGreaterThanOrEqual(0);
    }
    // Every question's best answer shares its words: plain BM25 finds all of them first.
    expect(report.methods.bm25.mrrAt10).toBe(1);
    expect(report.methods.bm25.recallAt100).toBe(1);
    expect(report.methods.lexical.mrrAt10).toBe(1);
    expect(report.warnings).toEqual([
      expect.stringMatching(/qrels\/test\.tsv: 1 query id \(q-missing\) not in .*queries\.jsonl; skipped/),
      expect.stringMatching(/qrels\/test\.tsv: 1 judged document id \(missing-doc\) not in .*corpus\.jsonl/),
    ]);
    // The scratch knowledge base is gone.
    expect(scratchFolders()).toEqual(before);

    const table = formatEvaluation(report);
    expect(table).toContain('(6 documents, 4 queries, split test)');
    expect(table).toMatch(/BM25 \(FTS5\) +1\.000 +1\.000 +1\.000/);
    expect(JSON.parse(evaluationJson(report))).toMatchObject({
      documents: 6,
      queries: 4,
      bm25: { ndcgAt10: 1, mrrAt10: 1, recallAt100: 1 },
      hybrid: { p50Ms: expect.any(Number) },
    });
  });

  it('evaluates the embeddings endpoint the settings name', async () => {
    // An OpenAI-compatible endpoint over HTTP, answering with the offline embedder's vectors.
    const offline = new OfflineEmbedder(64);
    let inputs = 0;
    const server = createServer(async (request, response) => {
      let body = '';
      for await (const part of request) body += part;
      const { input } = JSON.parse(body) as { input: string[] };
      inputs += input.length;
      const data = input.map((text, index) => ({ index, embedding: [...offline.embedOne(text)] }));
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ data }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const report = await evaluateCollection(
        writeCollection(),
        {},
        {
          XV_KB_EMBEDDINGS_URL: url,
          XV_KB_EMBEDDINGS_MODEL: 'test-embedder',
        },
      );
      expect(report.embedder).toBe('openai:test-embedder');
      // Every passage of the six documents and each question in the vector and hybrid modes.
      expect(inputs).toBeGreaterThanOrEqual(6 + 2 * 4);
      expect(report.methods.vector.recallAt100).toBeGreaterThan(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('fails when hybrid ranks below lexical, at the printed precision', async () => {
    const report = await evaluateCollection(writeCollection(), {}, {});
    const at = (hybrid: number, lexical: number) => ({
      ...report,
      methods: {
        ...report.methods,
        hybrid: { ...report.methods.hybrid, ndcgAt10: hybrid },
        lexical: { ...report.methods.lexical, ndcgAt10: lexical },
      },
    });
    expect(evaluationFailure(at(0.5, 0.61))).toBe('hybrid ranks below lexical (nDCG@10 0.500 < 0.610)');
    expect(evaluationFailure(at(0.7, 0.61))).toBeUndefined();
    expect(evaluationFailure(at(0.61, 0.6101))).toBeUndefined();
  });

  it('ranks the obvious documents first in the BM25 baseline', () => {
    const baseline = new Bm25Baseline();
    baseline.add(corpus.map((d) => ({ id: d._id, title: d.title, text: d.text })));
    expect(baseline.search('annual leave days', 10)[0]).toBe('leave');
    // Stemmed like the knowledge index: "receipt" finds "receipts".
    expect(baseline.search('Receipt for an expense?', 10)[0]).toBe('expenses');
    expect(baseline.search('parental leave', 10).slice(0, 2)).toEqual(['parental', 'leave']);
    expect(baseline.search('?!', 10)).toEqual([]);
    baseline.close();
    expect(matchExpression('Leave, leave "and" é-2')).toBe('"leave" OR "and" OR "é" OR "2"');
  });

  it('names the file of a missing qrels split', async () => {
    const folder = writeCollection({ qrels: null });
    await expect(evaluateCollection(folder, {}, {})).rejects.toThrow(
      new CollectionError(`${join(folder, 'qrels', 'test.tsv')}: file not found`),
    );
    await expect(evaluateCollection(writeCollection(), { split: 'dev' }, {})).rejects.toThrow(
      /qrels\/dev\.tsv: file not found/,
    );
  });

  it('names the file and line of a bad JSON line, and removes the scratch knowledge base', async () => {
    const before = scratchFolders();
    const lines = jsonl(corpus).split('\n');
    lines[2] = '{"_id": "vpn", "text": "unterminated';
    const folder = writeCollection({ corpus: lines.join('\n') });
    const error = await evaluateCollection(folder, {}, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CollectionError);
    expect((error as Error).message).toMatch(/corpus\.jsonl:3: bad JSON/);
    expect(scratchFolders()).toEqual(before);
  });

  it('names the line of a record without an id, and of a bad score', async () => {
    const noId = writeCollection({ queries: jsonl([queries[0]!, { text: 'no id' }]) });
    await expect(evaluateCollection(noId, {}, {})).rejects.toThrow(/queries\.jsonl:2: missing "_id"/);
    const badScore = writeCollection({ qrels: 'q-leave\tleave\t1\nq-vpn\tvpn\thigh\n' });
    await expect(evaluateCollection(badScore, {}, {})).rejects.toThrow(
      /qrels\/test\.tsv:2: the score "high" is not a number/,
    );
  });

  it('reads qrels without a header, skips repeated documents, and refuses a split with nothing judged', async () => {
    const folder = writeCollection({
      corpus: jsonl([...corpus, { _id: 'leave', title: 'Again', text: 'A second copy.' }]),
      qrels: 'q-leave\tleave\t1\n',
    });
    const report = await evaluateCollection(folder, {}, {});
    expect(report.documents).toBe(6);
    expect(report.queries).toBe(1);
    expect(report.warnings).toEqual([expect.stringContaining('1 repeated document id (leave) skipped')]);

    const nothing = writeCollection({ qrels: 'query-id\tcorpus-id\tscore\nq-leave\tleave\t0\n' });
    await expect(evaluateCollection(nothing, {}, {})).rejects.toThrow(/no question has a judgement above 0/);
  });
});
