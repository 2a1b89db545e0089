/**
 * @module search/document-search
 * One search, from a question to documents:
 * 1. *Lexical.* The database proposes candidate passages; each is scored by
 *    search/ranking.ts against the organization's statistics, and a document
 *    scores as its best passage.
 * 2. *Vectors.* The nearest passages to the question's embedding; a document
 *    ranks by its nearest passage.
 * 3. *Fusion*, by how much the embedder can be trusted (`Embedder.trust`):
 *    - trust 0 (the offline hashed embedder): the vector ranking is gated. The
 *      lexical ranking stands as it is, and the documents only the vectors found
 *      follow it, in vector order: hybrid search never ranks below lexical search,
 *      and still answers a question that shares no word with any document;
 *    - otherwise: weighted reciprocal rank fusion, `Σ weight / (60 + rank)`, the
 *      lexical ranking weighing 1 and the vector ranking its trust (1 for an
 *      embedding model).
 *    The reported `score` is the fused sum over the best possible, so 1 means
 *    "first in every ranking that took part".
 * Each document appears once, with its best passage; its other matching passages
 * ride along in `passages`. The measurements behind these choices are in
 * docs/knowledge.md ("How search ranks").
 */
import type { Kysely } from 'kysely';
import type { KnowledgeTables } from '../db.js';
import type { IndexVersion } from './change-log.js';
import type { LexicalIndex } from './lexical-index.js';
import {
  type Passage,
  parseQuery,
  type RankingQuery,
  type RankingTuning,
  rankingDefaults,
  type Statistics,
  scorePassage,
} from './ranking.js';
import type { Neighbour } from './vector-index.js';

export type RetrievalMode = 'hybrid' | 'lexical' | 'vector';

export interface PassageHit {
  headingPath: string;
  text: string;
  score: number;
}

export interface SearchHit extends PassageHit {
  docId: string;
  title: string;
  /** The document's other matching passages, best first (at most `MORE_PASSAGES`). */
  passages: PassageHit[];
}

const RRF_K = 60;
const MORE_PASSAGES = 3;

/** What a search needs from the index it runs against. */
export interface SearchSources {
  db: Kysely<KnowledgeTables>;
  lexical: LexicalIndex;
  version: IndexVersion;
  /** The nearest passages, or undefined when vectors cannot take part (stale index, embedder down). */
  nearest?: (k: number) => Promise<Neighbour[] | undefined>;
  /** The vector ranking's weight in the fusion. */
  vectorWeight: number;
}

interface ScoredPassage extends Passage {
  lexical: number;
  similarity: number;
}

interface RankedDocument {
  docId: string;
  score: number;
  passages: ScoredPassage[];
}

/**
 * The organization's documents for the question, best first, from the best
 * `depth` passages of each ranking; `wanted` is how many documents the caller
 * keeps (it decides whether gated vectors are needed at all).
 */
export async function searchDocuments(
  sources: SearchSources,
  orgId: string,
  question: string,
  depth: number,
  wanted: number,
  mode: RetrievalMode,
  tuning: RankingTuning = rankingDefaults,
): Promise<RankedDocument[]> {
  const query = parseQuery(question);
  const passages = new Map<number, ScoredPassage>();
  const lexical =
    mode !== 'vector' && query.terms.size > 0
      ? await scoreLexically(sources, orgId, query, depth, tuning, passages)
      : undefined;
  // Gated vectors only ever follow the lexical documents: when those fill the answer, they are not needed.
  const gated = mode === 'hybrid' && sources.vectorWeight === 0;
  const needed = mode !== 'lexical' && !(gated && lexical && lexical.size >= wanted);
  const nearest = needed ? await nearestDocuments(sources, orgId, depth, passages) : undefined;

  const lists: { weight: number; documents: string[] }[] = [];
  if (lexical) lists.push({ weight: 1, documents: [...lexical].sort((a, b) => b[1] - a[1]).map(([d]) => d) });
  if (nearest) {
    const weight = mode === 'vector' ? 1 : sources.vectorWeight;
    if (weight > 0 || lists.length === 0) lists.push({ weight, documents: nearest });
    else {
      // Gated: the documents only the vectors found follow the lexical ranking, as one ranking.
      const found = new Set(lists[0]!.documents);
      lists[0]!.documents.push(...nearest.filter((d) => !found.has(d)));
    }
  }
  const fused = new Map<string, number>();
  for (const list of lists)
    for (const [rank, docId] of list.documents.entries())
      fused.set(docId, (fused.get(docId) ?? 0) + list.weight / (RRF_K + rank + 1));
  const bestPossible = lists.reduce((sum, list) => sum + list.weight / (RRF_K + 1), 0);
  const byDocument = group([...passages.values()].filter((p) => p.lexical > 0 || p.similarity > 0));
  return [...fused]
    .sort((a, b) => b[1] - a[1] || (lexical?.get(b[0]) ?? 0) - (lexical?.get(a[0]) ?? 0))
    .map(([docId, score]) => ({
      docId,
      score: bestPossible > 0 ? score / bestPossible : 0,
      passages: (byDocument.get(docId) ?? []).sort(
        (a, b) => b.lexical - a.lexical || b.similarity - a.similarity,
      ),
    }));
}

/** The documents of the nearest passages, nearest first; undefined when vectors cannot take part. */
async function nearestDocuments(
  sources: SearchSources,
  orgId: string,
  depth: number,
  passages: Map<number, ScoredPassage>,
): Promise<string[] | undefined> {
  const neighbours = sources.nearest ? await sources.nearest(depth) : undefined;
  if (!neighbours) return undefined;
  const missing = neighbours.map((n) => n.chunkId).filter((id) => !passages.has(id));
  for (const p of await load(sources.db, orgId, missing))
    passages.set(p.chunkId, { ...p, lexical: 0, similarity: 0 });
  const documents = new Set<string>();
  for (const n of neighbours) {
    const p = passages.get(n.chunkId);
    if (!p) continue;
    p.similarity = 1 - n.distance;
    documents.add(p.documentId);
  }
  return [...documents];
}

/** Scores the candidate passages (added to `passages`) and returns each document's: its best passage's. */
async function scoreLexically(
  sources: SearchSources,
  orgId: string,
  query: RankingQuery,
  depth: number,
  tuning: RankingTuning,
  passages: Map<number, ScoredPassage>,
): Promise<Map<string, number>> {
  const { db, lexical, version } = sources;
  const words = [...query.terms.values()].flatMap((t) => t.words);
  const ids = await lexical.candidates(db, orgId, words, depth, version);
  const missing = ids.filter((id) => !passages.has(id));
  for (const p of await load(db, orgId, missing))
    passages.set(p.chunkId, { ...p, lexical: 0, similarity: 0 });
  const counted = await lexical.statistics(db, orgId, words, version);
  const stats: Statistics = {
    passages: counted.passages,
    averageLength: await lexical.averageLength(db, orgId, version, tuning),
    frequency: new Map(),
  };
  for (const term of query.terms.values())
    stats.frequency.set(term.stem, Math.max(0, ...term.words.map((w) => counted.frequency.get(w) ?? 0)));
  for (const p of passages.values()) p.lexical = scorePassage(query, p, stats, tuning);
  const documentScores = new Map<string, number>();
  for (const p of passages.values())
    if (p.lexical > (documentScores.get(p.documentId) ?? 0)) documentScores.set(p.documentId, p.lexical);
  return documentScores;
}

/** The hits for ranked documents: the best passage, and the next ones riding along. */
export function toHits(documents: RankedDocument[]): SearchHit[] {
  const round = (n: number) => Math.round(n * 1e4) / 1e4;
  return documents.flatMap((d) => {
    const [best, ...others] = d.passages;
    if (!best) return [];
    // A further passage's score is the document's, scaled by how it compares with the best passage.
    const relative = (p: ScoredPassage) =>
      best.lexical > 0 ? p.lexical / best.lexical : best.similarity > 0 ? p.similarity / best.similarity : 0;
    return [
      {
        docId: d.docId,
        title: best.title.normalize('NFC'),
        headingPath: best.headingPath,
        text: best.text,
        score: round(d.score),
        passages: others.slice(0, MORE_PASSAGES).map((p) => ({
          headingPath: p.headingPath,
          text: p.text,
          score: round(d.score * Math.min(1, relative(p))),
        })),
      },
    ];
  });
}

function group(passages: ScoredPassage[]): Map<string, ScoredPassage[]> {
  const byDocument = new Map<string, ScoredPassage[]>();
  for (const p of passages) {
    const list = byDocument.get(p.documentId);
    if (list) list.push(p);
    else byDocument.set(p.documentId, [p]);
  }
  return byDocument;
}

/** The passages (with their document's live title) of the given chunks of the organization. */
async function load(db: Kysely<KnowledgeTables>, orgId: string, ids: number[]): Promise<Passage[]> {
  const passages: Passage[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('chunks as c')
      .innerJoin('revisions as r', 'r.id', 'c.revision_id')
      .select(['c.id', 'c.document_id', 'c.heading_path', 'c.text', 'r.title'])
      .where('c.org_id', '=', orgId)
      .where('c.id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows)
      passages.push({
        chunkId: Number(r.id),
        documentId: r.document_id,
        title: r.title,
        headingPath: r.heading_path,
        text: r.text,
      });
  }
  return passages;
}
