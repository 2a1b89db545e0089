/**
 * @module client/shell
 * The script of every XV page's header: the light/dark toggle, remembered in
 * localStorage (without a choice the page follows the system's preference), and
 * the organization switch, posted to the identity service's switch endpoint.
 */

import { formatDate, localeOfTag, translator } from '../i18n.js';
import { shellMessages } from '../messages/index.js';

const locale = localeOfTag(document.documentElement.lang) ?? 'en';
const t = translator(shellMessages, locale);
const THEME_KEY = 'xv-theme';
type Theme = 'light' | 'dark';

function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null; // storage refused (private mode): follow the system
  }
}

function systemTheme(): Theme {
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function applyTheme(theme: Theme | null) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

function setUpThemeToggle(button: HTMLButtonElement) {
  const label = () => {
    const next = (storedTheme() ?? systemTheme()) === 'dark' ? 'light' : 'dark';
    button.textContent = t(next === 'dark' ? 'shell.theme.dark' : 'shell.theme.light');
    button.setAttribute(
      'aria-label',
      t(next === 'dark' ? 'shell.theme.switchTo.dark' : 'shell.theme.switchTo.light'),
    );
  };
  button.addEventListener('click', () => {
    const next: Theme = (storedTheme() ?? systemTheme()) === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // not remembered, still applied
    }
    applyTheme(next);
    label();
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

applyTheme(storedTheme());
localizeTimes();
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-theme-toggle]'))
  setUpThemeToggle(button);
for (const form of document.querySelectorAll<HTMLFormElement>('form.org-switch'))
  setUpOrganizationSwitch(form);
