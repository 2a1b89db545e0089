/**
 * @module chat/sources
 * The documents a knowledge search cited, as the page shows them under an
 * answer, and where the knowledge reader shows each one.
 */

/** A document a knowledge search cited, as the page links it. */
export interface KnowledgeSource {
  docId: string;
  title: string;
}

/** Where the knowledge reader shows a document. */
export const libraryUrl = (kbUrl: string, docId: string) =>
  `${kbUrl.replace(/\/+$/, '')}/library/${encodeURIComponent(docId)}`;

/** The documents of a `knowledgeBaseSearch` result, each once, in rank order; anything else gives none. */
export function sourcesOf(output: unknown): KnowledgeSource[] {
  const hits = (output as { hits?: unknown } | null)?.hits;
  if (!Array.isArray(hits)) return [];
  const seen = new Map<string, KnowledgeSource>();
  for (const hit of hits as { docId?: unknown; title?: unknown }[]) {
    if (typeof hit?.docId !== 'string' || !hit.docId || seen.has(hit.docId)) continue;
    seen.set(hit.docId, { docId: hit.docId, title: typeof hit.title === 'string' ? hit.title : hit.docId });
  }
  return [...seen.values()];
}
