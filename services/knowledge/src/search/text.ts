/**
 * @module search/text
 * Turning text into comparable words, shared by the offline embedder and the
 * lexical query builder: lowercase, accents folded, stop words dropped, and a
 * light suffix stemmer so "invoices", "invoiced" and "invoicing" meet.
 */

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this those to was we were what ' +
    'when where which while who whom why will with would you your about after all also any before both each ' +
    'just more most must only other over same should some such under up us very via'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;

/** Lowercased words with diacritics removed (đ → d as well). */
export function words(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase();
  return folded.match(WORD) ?? [];
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Content words: no stop words, no single characters. */
export function terms(text: string): string[] {
  return words(text).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

const SUFFIXES = [
  'ational',
  'ization',
  'fulness',
  'iveness',
  'ations',
  'ation',
  'ments',
  'ment',
  'ness',
  'ings',
  'ing',
  'ies',
  'ied',
  'ers',
  'er',
  'ed',
  'ly',
  'es',
  's',
];

/** A deliberately small stemmer: strips one common English suffix, keeping a stem of at least 3 letters. */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const base = word.slice(0, -suffix.length);
      if (suffix === 'ies' || suffix === 'ied') return `${base}y`;
      if (suffix === 's' && base.endsWith('s')) return word; // "process", "class"
      return base;
    }
  }
  return word;
}
