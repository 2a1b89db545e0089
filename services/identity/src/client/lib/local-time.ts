/**
 * @module client/lib/local-time
 * Times are written in UTC by the server; `<time datetime data-local>` elements are shown in the
 * reader's own language and time zone (Intl), the UTC instant kept in `datetime` and the title.
 */
const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function localizeTimes(root: ParentNode = document) {
  for (const element of root.querySelectorAll<HTMLTimeElement>('time[datetime][data-local]')) {
    const date = new Date(element.dateTime);
    if (Number.isNaN(date.getTime())) continue;
    element.title = element.dateTime;
    element.textContent = format.format(date);
  }
}
