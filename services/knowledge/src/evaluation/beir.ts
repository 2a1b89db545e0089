/**
 * @module evaluation/beir
 * Reads a test collection in the BEIR layout: `corpus.jsonl` (`{"_id","title","text"}`
 * per line), `queries.jsonl` (`{"_id","text"}`) and `qrels/<split>.tsv` (`query-id`,
 * `corpus-id`, `score`, tab-separated, with or without a header line). Files are
 * read line by line, so a corpus of hundreds of megabytes never sits in memory.
 * A malformed line stops the reading with an error naming the file and the line.
 */
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A collection that cannot be read: the message names the file (and the line). */
export class CollectionError extends Error {
  override readonly name = 'CollectionError';
}

export interface CorpusEntry {
  id: string;
  title: string;
  text: string;
}

/** Judgements by query id, then corpus id: the graded score (> 0 is relevant). */
export type Judgements = Map<string, Map<string, number>>;

export interface CollectionFiles {
  corpus: string;
  queries: string;
  qrels: string;
}

/** The collection's three files, checked to exist before any work starts. */
export async function collectionFiles(folder: string, split: string): Promise<CollectionFiles> {
  if (!/^[\w.-]+$/.test(split)) throw new CollectionError(`invalid split name: ${split}`);
  const files = {
    corpus: join(folder, 'corpus.jsonl'),
    queries: join(folder, 'queries.jsonl'),
    qrels: join(folder, 'qrels', `${split}.tsv`),
  };
  for (const file of Object.values(files)) {
    try {
      await access(file);
    } catch {
      throw new CollectionError(`${file}: file not found`);
    }
  }
  return files;
}

/** Non-empty lines of a file with their 1-based line numbers. */
async function* lines(file: string): AsyncGenerator<{ line: string; number: number }> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  try {
    for await (const raw of reader) {
      number++;
      const line = number === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (line.trim()) yield { line, number };
    }
  } catch (error) {
    throw new CollectionError(`${file}: ${(error as Error).message}`);
  } finally {
    reader.close();
    stream.destroy();
  }
}

function parseObject(file: string, line: string, number: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new CollectionError(`${file}:${number}: bad JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CollectionError(`${file}:${number}: expected a JSON object`);
  return value as Record<string, unknown>;
}

function requiredId(file: string, number: number, record: Record<string, unknown>): string {
  const id = record._id;
  if ((typeof id === 'string' && id !== '') || typeof id === 'number') return String(id);
  throw new CollectionError(`${file}:${number}: missing "_id"`);
}

function optionalText(file: string, number: number, record: Record<string, unknown>, field: string) {
  const value = record[field];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new CollectionError(`${file}:${number}: "${field}" is not a string`);
  return value;
}

/** The corpus entries in file order; extra fields are ignored. */
export async function* readCorpus(file: string): AsyncGenerator<CorpusEntry> {
  for await (const { line, number } of lines(file)) {
    const record = parseObject(file, line, number);
    yield {
      id: requiredId(file, number, record),
      title: optionalText(file, number, record, 'title'),
      text: optionalText(file, number, record, 'text'),
    };
  }
}

/** The text of the queries in `wanted` (the others are skipped unread beyond their id). */
export async function readQueries(file: string, wanted: ReadonlySet<string>): Promise<Map<string, string>> {
  const queries = new Map<string, string>();
  for await (const { line, number } of lines(file)) {
    const record = parseObject(file, line, number);
    const id = requiredId(file, number, record);
    if (wanted.has(id)) queries.set(id, optionalText(file, number, record, 'text'));
  }
  return queries;
}

/**
 * The judgements of a split. Columns are `query-id corpus-id score` (BEIR) or
 * `query-id iteration corpus-id score` (TREC); a first line whose score is not a
 * number is the header. A pair judged twice keeps the last score.
 */
export async function readJudgements(file: string): Promise<Judgements> {
  const judgements: Judgements = new Map();
  let first = true;
  for await (const { line, number } of lines(file)) {
    const header = first;
    first = false;
    const columns = line.trim().split(/\t|\s+/);
    if (columns.length !== 3 && columns.length !== 4)
      throw new CollectionError(
        `${file}:${number}: expected "query-id<TAB>corpus-id<TAB>score", found ${columns.length} columns`,
      );
    const [queryId, docId, score] = columns.length === 3 ? columns : [columns[0], columns[2], columns[3]];
    const value = Number(score);
    if (!/^-?\d+(\.\d+)?$/.test(score ?? '') || !Number.isFinite(value)) {
      if (header) continue;
      throw new CollectionError(`${file}:${number}: the score "${score}" is not a number`);
    }
    const ofQuery = judgements.get(queryId!) ?? new Map<string, number>();
    judgements.set(queryId!, ofQuery.set(docId!, value));
  }
  return judgements;
}
