/**
 * @module pages/i18n
 * Translation inside page components: `useT(messages)` in the page's language
 * (chosen per request by `requestLocale`, http/preferences.ts), `LocalTime`, and
 * `richText` for a sentence with elements inside.
 */
import { type Child, useContext } from 'hono/jsx';
import {
  type Catalogue,
  DEFAULT_LOCALE,
  formatDate,
  type Locale,
  type Messages,
  type Translate,
  translator,
} from '../i18n.js';
import { ShellContext } from './shell.js';

/** The page's language, from the request's shell. */
export function useLocale(): Locale {
  return useContext(ShellContext).locale ?? DEFAULT_LOCALE;
}

/** A translator for `messages` in the page's language. */
export function useT<C extends Catalogue>(messages: Messages<C>): Translate<C> {
  return translator(messages, useLocale());
}

/**
 * A moment as a `<time>` element, written in the page's language (in UTC on the
 * server); the shell script rewrites it in the reader's own time zone.
 */
export function LocalTime(props: { value: number | string | Date; style?: 'date' | 'dateTime' }) {
  const locale = useLocale();
  const date = props.value instanceof Date ? props.value : new Date(props.value);
  if (Number.isNaN(date.getTime())) return <time>{String(props.value)}</time>;
  const style = props.style ?? 'dateTime';
  return (
    <time datetime={date.toISOString()} data-style={style}>
      {formatDate(date, locale, style, 'UTC')}
    </time>
  );
}

const PLACEHOLDER = /(\{\w+\})/;

/**
 * A message whose `{name}` placeholders are elements (a link, a date, code), so a
 * sentence keeps them wherever its language puts them. The text around them
 * stays text, escaped as usual; a placeholder without a part is left as written.
 */
export function richText(message: string, parts: Record<string, Child>): Child[] {
  return message.split(PLACEHOLDER).map((piece) => {
    const name = piece.startsWith('{') && piece.endsWith('}') ? piece.slice(1, -1) : undefined;
    return name !== undefined && Object.hasOwn(parts, name) ? parts[name] : piece;
  });
}
