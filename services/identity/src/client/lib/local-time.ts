/**
 * @module client/lib/local-time
 * Times are written in UTC by the server; `<time datetime data-local>` elements are shown in the
 * page's language and the reader's own time zone (Intl), the UTC instant kept in `datetime` and the title.
 */
import { formatDate } from '@xv/platform/i18n';
import { locale } from './i18n.js';

const format = { format: (date: Date) => formatDate(date, locale, 'dateTime') };

/** A `<time>` of `at` (ms since the epoch) in the reader's locale, as the server's `When` becomes. */
export function localTime(at: number): HTMLTimeElement {
  const element = document.createElement('time');
  element.dateTime = new Date(at).toISOString();
  element.dataset.local = '';
  element.title = element.dateTime;
  element.textContent = format.format(new Date(at));
  return element;
}

export function localizeTimes(root: ParentNode = document) {
  for (const element of root.querySelectorAll<HTMLTimeElement>('time[datetime][data-local]')) {
    const date = new Date(element.dateTime);
    if (Number.isNaN(date.getTime())) continue;
    element.title = element.dateTime;
    element.textContent = format.format(date);
  }
}
