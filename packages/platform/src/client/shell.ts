/**
 * @module client/shell
 * The script of every XV page's header: the light/dark toggle (the choice is
 * posted to the service's `/theme`, which remembers it in a cookie shared by every
 * service, so each renders it from the first byte; without a choice the page follows
 * the system's preference), the organization switch, posted to the identity
 * service's switch endpoint, and dates rewritten in the reader's time zone.
 */

import { formatDate, localeOfTag, translator } from '../i18n.js';
import { shellMessages } from '../messages/index.js';

const locale = localeOfTag(document.documentElement.lang) ?? 'en';
const t = translator(shellMessages, locale);
type Theme = 'light' | 'dark';

/** The explicit choice the server rendered (`<html data-theme>`), or the one just made. */
function chosenTheme(): Theme | null {
  const value = document.documentElement.dataset.theme;
  return value === 'light' || value === 'dark' ? value : null;
}

function systemTheme(): Theme {
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function setUpThemeToggle(button: HTMLButtonElement) {
  const label = () => {
    const next = (chosenTheme() ?? systemTheme()) === 'dark' ? 'light' : 'dark';
    button.textContent = t(next === 'dark' ? 'shell.theme.dark' : 'shell.theme.light');
    button.setAttribute(
      'aria-label',
      t(next === 'dark' ? 'shell.theme.switchTo.dark' : 'shell.theme.switchTo.light'),
    );
  };
  button.addEventListener('click', () => {
    const next: Theme = (chosenTheme() ?? systemTheme()) === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    label();
    // Applied at once; remembered when the service answers (not at all if it cannot be reached).
    void fetch('/theme', { method: 'POST', body: new URLSearchParams({ to: next }) }).catch(() => undefined);
  });
  label();
  button.hidden = false;
}

function setUpOrganizationSwitch(form: HTMLFormElement) {
  const url = form.dataset.switchUrl;
  const select = form.querySelector('select');
  if (!url || !select) return;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ org_id: select.value }),
      credentials: 'include',
    }).catch(() => null);
    // On failure the account page, where the choice can be made, explains what is wrong.
    if (response?.ok) location.reload();
    else form.submit();
  });
}

/** Moments the server wrote in UTC, rewritten in the reader's own time zone. */
function localizeTimes() {
  for (const time of document.querySelectorAll<HTMLTimeElement>('time[datetime][data-style]')) {
    const style = time.dataset.style === 'date' ? 'date' : 'dateTime';
    time.textContent = formatDate(time.dateTime, locale, style);
  }
}

localizeTimes();
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-theme-toggle]'))
  setUpThemeToggle(button);
for (const form of document.querySelectorAll<HTMLFormElement>('form.org-switch'))
  setUpOrganizationSwitch(form);
