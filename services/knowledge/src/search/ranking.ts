/**
 * @module search/ranking
 * The lexical score of a passage, computed here rather than by the database so
 * that SQLite and PostgreSQL rank alike and the statistics are the
 * organization's own (another organization's documents never move a score):
 * - BM25 over three fields of a passage, BM25F-style: the document title and
 *   the heading path count more than the text (`title`, `heading` weights), and
 *   length is normalised against the organization's average passage;
 * - phrase credit: each pair of adjacent question words found adjacent in the
 *   passage adds a share of their weight, which is what ranks "bảo hiểm xã hội"
 *   (social insurance) above a passage that has the four syllables apart;
 * - diacritic credit: a question word typed with diacritics adds a share of its
 *   weight where the passage has that exact form, so "bản đồ" (map) ranks the
 *   map above "bán đồ" (selling things) while "ban do" finds both.
 * The database only proposes the candidates (search/lexical-index.ts).
 */
import { accented, type Token, tokens } from './analysis.js';

export interface RankingTuning {
  k1: number;
  b: number;
  title: number;
  heading: number;
  /** Share of a pair's weight a phrase match adds. */
  phrase: number;
  /** Share of a word's weight an exact diacritic match adds. */
  exact: number;
}

/** Chosen by measurement (docs/knowledge.md, "How search ranks"). */
export const rankingDefaults: RankingTuning = {
  k1: 1.2,
  b: 0.75,
  title: 2,
  heading: 1.5,
  phrase: 0.5,
  exact: 0.5,
};

export interface QueryTerm {
  stem: string;
  /** The folded words of the question with this stem (their document frequencies are counted). */
  words: string[];
  /** The forms typed with diacritics, for the exact-match credit. */
  accented: Set<string>;
  /** How much it counts: 1 + ln(times the question says it). */
  weight: number;
}

export interface RankingQuery {
  terms: Map<string, QueryTerm>;
  /** Adjacent content words of the question, as stems. */
  pairs: [string, string][];
}

export function parseQuery(text: string): RankingQuery {
  const terms = new Map<string, QueryTerm>();
  const pairs: [string, string][] = [];
  const seenPairs = new Set<string>();
  const said = new Map<string, number>();
  let previous: Token | undefined;
  for (const token of tokens(text)) {
    if (!token.content) {
      previous = undefined;
      continue;
    }
    let term = terms.get(token.stem);
    if (!term) {
      term = { stem: token.stem, words: [], accented: new Set(), weight: 0 };
      terms.set(token.stem, term);
    }
    said.set(token.stem, (said.get(token.stem) ?? 0) + 1);
    if (!term.words.includes(token.folded)) term.words.push(token.folded);
    if (accented(token)) term.accented.add(token.exact);
    if (previous && previous.stem !== token.stem) {
      const key = `${previous.stem} ${token.stem}`;
      if (!seenPairs.has(key)) {
        seenPairs.add(key);
        pairs.push([previous.stem, token.stem]);
      }
    }
    previous = token;
  }
  for (const term of terms.values()) term.weight = 1 + Math.log(said.get(term.stem)!);
  return { terms, pairs };
}

/** The organization's figures BM25 needs, lengths in characters. */
export interface Statistics {
  passages: number;
  averageLength: number;
  /** Passages holding the stem. */
  frequency: Map<string, number>;
}

export interface Passage {
  chunkId: number;
  documentId: string;
  title: string;
  headingPath: string;
  text: string;
}

/** Inverse document frequency, Lucene's form: never negative, even for a word in most passages. */
export function idf(stats: Statistics, stem: string): number {
  const n = stats.frequency.get(stem) ?? 0;
  return Math.log(1 + (stats.passages - n + 0.5) / (n + 0.5));
}

interface FieldCounts {
  counts: Map<string, number>;
  exact: Set<string>;
  adjacent: Set<string>;
}

function read(text: string): FieldCounts {
  const counts = new Map<string, number>();
  const exact = new Set<string>();
  const adjacent = new Set<string>();
  let previous: string | undefined;
  for (const token of tokens(text)) {
    counts.set(token.stem, (counts.get(token.stem) ?? 0) + 1);
    if (token.exact !== token.folded) exact.add(token.exact);
    if (previous !== undefined) adjacent.add(`${previous} ${token.stem}`);
    previous = token.content ? token.stem : undefined;
  }
  return { counts, exact, adjacent };
}

/** A passage's weighted length in characters, as the statistics count it. */
export function passageLength(
  tuning: RankingTuning,
  p: { title: string; headingPath: string; text: string },
) {
  return tuning.title * p.title.length + tuning.heading * p.headingPath.length + p.text.length;
}

/** The lexical score of one passage for the question; 0 when it shares no word. */
export function scorePassage(
  query: RankingQuery,
  passage: Passage,
  stats: Statistics,
  tuning: RankingTuning = rankingDefaults,
): number {
  const fields = [
    { weight: tuning.title, read: read(passage.title) },
    { weight: tuning.heading, read: read(passage.headingPath) },
    { weight: 1, read: read(passage.text) },
  ];
  const norm = tuning.k1 * (1 - tuning.b + (tuning.b * passageLength(tuning, passage)) / stats.averageLength);
  const weights = new Map<string, number>();
  let score = 0;
  for (const term of query.terms.values()) {
    let tf = 0;
    for (const f of fields) tf += f.weight * (f.read.counts.get(term.stem) ?? 0);
    const weight = idf(stats, term.stem) * term.weight;
    weights.set(term.stem, weight);
    if (tf === 0) continue;
    score += (weight * (tf * (tuning.k1 + 1))) / (tf + norm);
    for (const form of term.accented)
      if (fields.some((f) => f.read.exact.has(form))) score += tuning.exact * weight;
  }
  if (score === 0) return 0;
  for (const [a, b] of query.pairs) {
    const key = `${a} ${b}`;
    if (fields.some((f) => f.read.adjacent.has(key)))
      score += (tuning.phrase * ((weights.get(a) ?? 0) + (weights.get(b) ?? 0))) / 2;
  }
  return score;
}
