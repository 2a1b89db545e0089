/**
 * @module testing/i18n
 * Checks of a translated page and its catalogue, for every service's tests: the
 * English left on a Vietnamese page, and a Vietnamese catalogue that drifts from
 * the English one (placeholders, Unicode form).
 */
import type { Catalogue, Messages } from '../i18n.js';

const PLACEHOLDER = /\{\w+\}/g;

/** What a person reads on a page: its text (tags dropped, entities decoded) and its labels, titles, placeholders and alt texts. */
export function readableText(html: string): string {
  const attributes = [...html.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]);
  const text = html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ');
  return [text, ...attributes]
    .join(' ')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/**
 * The catalogue keys whose English wording shows on a page meant to be Vietnamese:
 * any literal piece of the message (placeholders aside) longer than `minLength`
 * characters, for messages whose translation differs from the English.
 */
export function englishLeftIn(html: string, catalogues: Messages<Catalogue>[], minLength = 12): string[] {
  const text = readableText(html);
  return catalogues.flatMap((messages) =>
    Object.entries(messages.en)
      .filter(([key, english]) => english !== messages.vi[key])
      .filter(([, english]) =>
        english
          .split(PLACEHOLDER)
          .some((piece) => piece.trim().length > minLength && text.includes(piece.trim())),
      )
      .map(([key]) => key),
  );
}

/** A Vietnamese catalogue's drift from the English one: messages not in NFC, or with other placeholders. */
export function catalogueProblems(messages: Messages<Catalogue>): string[] {
  const placeholders = (message: string) => [...message.matchAll(PLACEHOLDER)].map((m) => m[0]).sort();
  return Object.entries(messages.en).flatMap(([key, english]) => {
    const vietnamese = messages.vi[key] ?? '';
    const problems: string[] = [];
    if (vietnamese.normalize('NFC') !== vietnamese) problems.push(`${key}: not in NFC`);
    if (placeholders(vietnamese).join() !== placeholders(english).join())
      problems.push(`${key}: placeholders ${placeholders(vietnamese)} instead of ${placeholders(english)}`);
    return problems;
  });
}
