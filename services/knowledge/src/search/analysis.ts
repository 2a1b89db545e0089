/**
 * @module search/analysis
 * How search reads text, one definition for indexing, querying and ranking:
 * - NFC first, so a document pushed in decomposed form reads like a composed one;
 * - every word has three forms: `exact` (lowercased, diacritics kept), `folded`
 *   (tone marks and other diacritics removed, and đ/Đ → d, which has no Unicode
 *   decomposition) and `stem` (Porter's stemmer over the folded form: the
 *   algorithm of SQLite FTS5's `porter` tokenizer, so "invoicing" meets "invoice");
 * - English stop words are dropped only when written without diacritics: "the"
 *   is a stop word, the Vietnamese "thẻ" (card) is not.
 * Matching is on stems, so a question typed without diacritics finds text written
 * with them; the exact forms let ranking prefer the passage that matches them too.
 */
import { stemmer } from 'stemmer';

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this those to was we were what ' +
    'when where which while who whom why will with would you your about after all also any before both each ' +
    'just more most must only other over same should some such under up us very via'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;
const DIGIT = /^\p{N}$/u;

/** Lowercase, no diacritics, đ → d: what the lexical index stores and matches. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .normalize('NFC');
}

export interface Token {
  exact: string;
  folded: string;
  stem: string;
  /** A content word: not a stop word, not a single letter (a single digit is: "IL 6", "5 days"). */
  content: boolean;
}

const stems = new Map<string, string>();
const STEM_CACHE = 200_000;

/** Porter's stem of a folded word, remembered (the same words come back in every passage, as do their tokens below). */
export function stem(folded: string): string {
  let found = stems.get(folded);
  if (found === undefined) {
    found = /^\p{L}+$/u.test(folded) ? stemmer(folded) : folded;
    if (stems.size >= STEM_CACHE) stems.clear();
    stems.set(folded, found);
  }
  return found;
}

const known = new Map<string, Token>();

/** The words of a text, in order, each in its three forms. */
export function tokens(text: string): Token[] {
  const words = text.normalize('NFC').toLowerCase().match(WORD) ?? [];
  return words.map((exact) => {
    let token = known.get(exact);
    if (!token) {
      const folded = fold(exact);
      token = {
        exact,
        folded,
        stem: stem(folded),
        content: (folded.length > 1 || DIGIT.test(folded)) && !(exact === folded && STOP_WORDS.has(folded)),
      };
      if (known.size >= STEM_CACHE) known.clear();
      known.set(exact, token);
    }
    return token;
  });
}

/** A word that carries diacritics (its exact form differs from its folded one). */
export function accented(token: Token): boolean {
  return token.exact !== token.folded;
}
