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
  /** Its place in `RankingQuery.terms` (scoring counts into arrays by it). */
  position: number;
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
  /** The pairs by the positions of their words: `first * PAIR_KEY + second` → index in `pairs`. */
  pairKeys: Map<number, number>;
  /** Each form typed with diacritics → the position of its term. */
  accentedForms: Map<string, number>;
}

const PAIR_KEY = 1 << 16;

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
      term = { stem: token.stem, position: terms.size, words: [], accented: new Set(), weight: 0 };
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
  return indexed(terms, pairs);
}

/** Adds the lookups scoring uses to a question's terms and pairs. */
export function indexed(terms: Map<string, QueryTerm>, pairs: [string, string][]): RankingQuery {
  const pairKeys = new Map<number, number>();
  for (const [i, [a, b]] of pairs.entries())
    pairKeys.set(terms.get(a)!.position * PAIR_KEY + terms.get(b)!.position, i);
  const accentedForms = new Map<string, number>();
  for (const term of terms.values()) for (const form of term.accented) accentedForms.set(form, term.position);
  return { terms, pairs, pairKeys, accentedForms };
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

/** What scoring collects from a passage, per question term (by position) and pair. */
interface Found {
  tf: Float64Array;
  exact: Uint8Array;
  pairs: Uint8Array;
}

/** Counts the question's words in one field of a passage, weighted by the field's weight. */
function scan(text: string, query: RankingQuery, weight: number, found: Found) {
  let previous = -1;
  for (const token of tokens(text)) {
    const position = query.terms.get(token.stem)?.position;
    if (position === undefined) {
      previous = -1;
      continue;
    }
    found.tf[position]! += weight;
    if (token.exact !== token.folded && query.accentedForms.get(token.exact) === position)
      found.exact[position] = 1;
    if (previous >= 0) {
      const pair = query.pairKeys.get(previous * PAIR_KEY + position);
      if (pair !== undefined) found.pairs[pair] = 1;
    }
    previous = token.content ? position : -1;
  }
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
  const size = query.terms.size;
  const found: Found = {
    tf: new Float64Array(size),
    exact: new Uint8Array(size),
    pairs: new Uint8Array(query.pairs.length),
  };
  scan(passage.title, query, tuning.title, found);
  scan(passage.headingPath, query, tuning.heading, found);
  scan(passage.text, query, 1, found);
  const norm = tuning.k1 * (1 - tuning.b + (tuning.b * passageLength(tuning, passage)) / stats.averageLength);
  const weights = new Float64Array(size);
  let score = 0;
  for (const term of query.terms.values()) {
    const weight = idf(stats, term.stem) * term.weight;
    weights[term.position] = weight;
    const tf = found.tf[term.position]!;
    if (tf === 0) continue;
    score += (weight * (tf * (tuning.k1 + 1))) / (tf + norm);
    if (found.exact[term.position]) score += tuning.exact * weight;
  }
  if (score === 0) return 0;
  for (const [i, [a, b]] of query.pairs.entries()) {
    if (found.pairs[i])
      score +=
        (tuning.phrase * (weights[query.terms.get(a)!.position]! + weights[query.terms.get(b)!.position]!)) /
        2;
  }
  return score;
}
