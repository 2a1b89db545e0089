/**
 * @module i18n
 * XV's pages speak English and Vietnamese. Each package keeps one catalogue per
 * language (`src/messages/en.ts`, `src/messages/vi.ts`): English defines the keys,
 * and the Vietnamese catalogue is typed against it, so a missing translation fails
 * the type check rather than showing a key to a reader.
 *
 * Messages are plain strings with `{name}` placeholders. A count picks its form
 * through `Intl.PluralRules` (`key.one` / `key.other`; Vietnamese has only `other`).
 * This module has no dependencies: browser scripts import it too.
 */

export const LOCALES = ['en', 'vi'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
/** The cookie that remembers the reader's choice, shared by every service under the domain. */
export const LOCALE_COOKIE = 'xv_lang';

/** Each language's own name, as a reader of that language writes it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', vi: 'Tiếng Việt' };

export type Catalogue = Record<string, string>;
/** A translation of catalogue `C`: every key, no other. */
export type Translation<C extends Catalogue> = { readonly [K in keyof C]: string };

export interface Messages<C extends Catalogue> {
  readonly en: C;
  readonly vi: Translation<C>;
}

export function defineMessages<const C extends Catalogue>(en: C, vi: Translation<C>): Messages<C> {
  return { en, vi };
}

export type MessageValues = Record<string, string | number>;

/** Keys of `C` that have plural forms (`<key>.one` and `<key>.other`). */
export type PluralKey<C> = {
  [K in keyof C]: K extends `${infer Base}.other` ? (`${Base}.one` extends keyof C ? Base : never) : never;
}[keyof C];

export interface Translate<C extends Catalogue> {
  (key: keyof C & string, values?: MessageValues): string;
  /** The form of `key` for `count` (`{count}` is filled in, formatted for the locale). */
  plural(key: PluralKey<C> & string, count: number, values?: MessageValues): string;
  /** Whether the catalogue has `key`: for keys made at run time, an error code's wording say. */
  has(key: string): key is keyof C & string;
  readonly locale: Locale;
}

const PLACEHOLDER = /\{(\w+)\}/g;

function fill(template: string, values: MessageValues | undefined, locale: Locale): string {
  if (!values) return template;
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? formatNumber(value, locale) : value;
  });
}

const pluralRules = new Map<Locale, Intl.PluralRules>();
function pluralCategory(locale: Locale, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

export function translator<C extends Catalogue>(messages: Messages<C>, locale: Locale): Translate<C> {
  const catalogue: Catalogue = messages[locale];
  const english: Catalogue = messages.en;
  const lookup = (key: string) => catalogue[key] ?? english[key] ?? key;
  const t = ((key: string, values?: MessageValues) => fill(lookup(key), values, locale)) as Translate<C>;
  t.plural = (key: string, count: number, values?: MessageValues) => {
    const category = pluralCategory(locale, count);
    const form = catalogue[`${key}.${category}`] !== undefined ? category : 'other';
    return fill(lookup(`${key}.${form}`), { count, ...values }, locale);
  };
  t.has = (key: string): key is keyof C & string => english[key] !== undefined;
  Object.defineProperty(t, 'locale', { value: locale });
  return t;
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The supported locale of a language tag (`vi-VN` → `vi`), or undefined. */
export function localeOfTag(tag: string | null | undefined): Locale | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(primary) ? primary : undefined;
}

/**
 * The reader's preferred supported locale from an `Accept-Language` header
 * (RFC 9110 §12.5.4): highest weight first, ties in the order given; `q=0` refuses.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | undefined {
  if (!acceptLanguage) return undefined;
  let best: { locale: Locale; q: number } | undefined;
  for (const range of acceptLanguage.slice(0, 512).split(',')) {
    const [tag, ...params] = range.split(';');
    const locale = localeOfTag(tag);
    if (!locale) continue;
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = weight ? Number.parseFloat(weight.slice(2)) : 1;
    if (!(q > 0)) continue;
    if (!best || q > best.q) best = { locale, q };
  }
  return best?.locale;
}

// Intl formatters are costly to build and pages format many values: one per locale and style.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter as F;
}

export function formatNumber(value: number, locale: Locale): string {
  return cached(`n:${locale}`, () => new Intl.NumberFormat(locale)).format(value);
}

const DATE_STYLES = {
  date: { dateStyle: 'medium' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

/** A date (epoch milliseconds, or an ISO string) as a reader of `locale` writes it. */
export function formatDate(
  value: number | string | Date,
  locale: Locale,
  style: keyof typeof DATE_STYLES = 'date',
  timeZone?: string,
): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return cached(
    `d:${locale}:${style}:${timeZone ?? ''}`,
    () => new Intl.DateTimeFormat(locale, { ...DATE_STYLES[style], ...(timeZone ? { timeZone } : {}) }),
  ).format(date);
}
