/**
 * @module http/pages/words
 * What the people's pages say in words rather than codes: document states as
 * labels, dates in the reader's language (from `Accept-Language`), and a passage
 * cut into plain and highlighted pieces. Pieces stay text: the page's JSX escapes
 * them, so a passage cannot inject markup through the highlighting.
 */
import type { DocumentState } from '../../documents/model.js';

const STATE_LABELS: Record<DocumentState, string> = {
  approved: 'Approved',
  under_review: 'Waiting for review',
  rejected: 'Rejected',
  draft: 'Draft',
  retired: 'Retired',
};

export function stateLabel(state: DocumentState): string {
  return STATE_LABELS[state];
}

/** The first language of an `Accept-Language` header the runtime can format dates in, else English. */
export function readerLocale(acceptLanguage: string | undefined): string {
  const wanted = (acceptLanguage ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter((tag) => tag && tag !== '*')
    .slice(0, 10);
  for (const tag of wanted) {
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // Not a well-formed language tag: try the next one.
    }
  }
  return 'en';
}

export function formatDate(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
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
