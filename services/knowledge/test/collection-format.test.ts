/**
 * The labelled search collection shipped in bench/collections/xv-handbook
 * (read by `xv kb eval`) keeps the BEIR layout and the mix it promises:
 * English and Vietnamese documents, Vietnamese questions typed both with and
 * without diacritics, and at least one answering document per question.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const collection = new URL('../../../bench/collections/xv-handbook/', import.meta.url);

interface CorpusRow {
  _id: string;
  title: string;
  text: string;
}

interface QueryRow {
  _id: string;
  text: string;
}

interface Judgement {
  queryId: string;
  corpusId: string;
  score: number;
}

function readLines(name: string): string[] {
  const content = readFileSync(new URL(name, collection), 'utf8');
  expect(content.endsWith('\n'), `${name} ends with a newline`).toBe(true);
  expect(content.includes('\r'), `${name} uses LF line endings`).toBe(false);
  return content.slice(0, -1).split('\n');
}

function parseJsonLines(name: string): unknown[] {
  return readLines(name).map((line, index) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`${name} line ${index + 1} is not JSON`);
    }
  });
}

const corpus = parseJsonLines('corpus.jsonl') as CorpusRow[];
const queries = parseJsonLines('queries.jsonl') as QueryRow[];
const [qrelsHeader, ...qrelsLines] = readLines('qrels/test.tsv');
const judgements: Judgement[] = qrelsLines.map((line) => {
  const [queryId, corpusId, score, ...extra] = line.split('\t');
  if (extra.length > 0 || !queryId || !corpusId) throw new Error(`malformed qrels line: ${line}`);
  return { queryId, corpusId, score: Number(score) };
});

// Vietnamese letters with a breve, circumflex, horn or bar, or any tone mark (seen after NFD).
const diacritic = /[\u0300-\u036f]|đ|Đ/;
const hasDiacritics = (text: string) => diacritic.test(text.normalize('NFD'));
const isVietnamese = (row: { _id: string; text: string }) =>
  row._id.startsWith('vi-') || hasDiacritics(row.text);

describe('bench/collections/xv-handbook', () => {
  it('has well-formed documents and queries with unique ids', () => {
    for (const doc of corpus) {
      expect(typeof doc._id, JSON.stringify(doc).slice(0, 80)).toBe('string');
      expect(typeof doc.title).toBe('string');
      expect(doc.text.length, doc._id).toBeGreaterThan(0);
    }
    for (const query of queries) {
      expect(typeof query._id).toBe('string');
      expect(query.text.trim().length, query._id).toBeGreaterThan(0);
    }
    expect(new Set(corpus.map((d) => d._id)).size).toBe(corpus.length);
    expect(new Set(queries.map((q) => q._id)).size).toBe(queries.length);
  });

  it('stores every text in Unicode NFC', () => {
    const texts = [...corpus.flatMap((d) => [d._id, d.title, d.text]), ...queries.map((q) => q.text)];
    const notNfc = texts.filter((text) => text !== text.normalize('NFC'));
    expect(notNfc).toEqual([]);
  });

  it('judges only known pairs, once each, with grades 1 or 2', () => {
    expect(qrelsHeader).toBe('query-id\tcorpus-id\tscore');
    const docIds = new Set(corpus.map((d) => d._id));
    const queryIds = new Set(queries.map((q) => q._id));
    for (const j of judgements) {
      expect(queryIds.has(j.queryId), `unknown query ${j.queryId}`).toBe(true);
      expect(docIds.has(j.corpusId), `unknown document ${j.corpusId}`).toBe(true);
      expect([1, 2], `${j.queryId} ${j.corpusId}`).toContain(j.score);
    }
    const pairs = judgements.map((j) => `${j.queryId} ${j.corpusId}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('gives every query at least one answering document', () => {
    const answered = new Set(judgements.filter((j) => j.score === 2).map((j) => j.queryId));
    const unanswered = queries.filter((q) => !answered.has(q._id)).map((q) => q._id);
    expect(unanswered).toEqual([]);
  });

  it('holds the promised size and language mix', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    expect(queries.length).toBeGreaterThanOrEqual(100);
    expect(corpus.filter(isVietnamese).length).toBeGreaterThanOrEqual(26);

    const vietnameseQueries = queries.filter(isVietnamese);
    expect(vietnameseQueries.length).toBeGreaterThanOrEqual(50);
    expect(vietnameseQueries.filter((q) => hasDiacritics(q.text)).length).toBeGreaterThanOrEqual(20);
    expect(vietnameseQueries.filter((q) => !hasDiacritics(q.text)).length).toBeGreaterThanOrEqual(20);
  });
});
