/**
 * @module http/pages/words
 * What the people's pages say in words rather than codes: document states,
 * history steps and API errors in the page's language (from the catalogue in
 * `src/messages/`), and a passage cut into plain and highlighted pieces. Pieces stay text: the page's JSX escapes
 * them, so a passage cannot inject markup through the highlighting.
 */
import type { DocumentState } from '../../documents/model.js';
import type { KnowledgeT } from '../../messages/index.js';

/** A document's state as a label in the page's language ("Waiting for review", not `under_review`). */
export function stateLabel(t: KnowledgeT, state: DocumentState): string {
  return t(`state.${state}`);
}

/** A step of a document's history in words; a step this version does not know keeps its code. */
export function historyAction(t: KnowledgeT, action: string): string {
  const key = `history.action.${action}`;
  return t.has(key) ? t(key) : action;
}

/** What an API error means to the person on the page: the catalogue's wording, else the error's own message. */
export function errorText(t: KnowledgeT, error: { code: string; message: string }): string {
  const key = `error.code.${error.code}`;
  return t.has(key) ? t(key) : error.message;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a query worth highlighting: letters or digits, longest first so a longer one wins. */
export function queryWords(query: string): string[] {
  const words = new Set((query.match(WORD) ?? []).map((w) => w.toLocaleLowerCase()));
  return [...words].filter((w) => w.length > 1 || /\p{N}/u.test(w)).sort((a, b) => b.length - a.length);
}

export interface Piece {
  text: string;
  hit: boolean;
}

/** `text` cut into pieces, the ones that are whole query words marked as hits. */
export function highlight(text: string, query: string): Piece[] {
  const words = new Set(queryWords(query));
  if (words.size === 0) return [{ text, hit: false }];
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    if (!words.has(match[0].toLocaleLowerCase())) continue;
    if (match.index > last) pieces.push({ text: text.slice(last, match.index), hit: false });
    pieces.push({ text: match[0], hit: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), hit: false });
  return pieces;
}
