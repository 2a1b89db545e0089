/**
 * @module http/preferences
 * What a reader chose for every XV page, kept in cookies shared by every service
 * under the domain: the language and the theme.
 *
 * The language of a page: the reader's remembered choice (the `xv_lang` cookie,
 * shared by every service under the domain), else their browser's
 * `Accept-Language`, else English.
 *
 * `GET /lang?to=vi&back=/library` remembers the reader's language in a cookie
 * shared by every XV service under the domain, and returns them to the page
 * they were reading. Only a path on this service is a way back (no open redirect).
 */
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale, negotiateLocale } from '../i18n.js';
import { sharedCookieOptions } from './cookies.js';

/** The language to answer the request in. */
export function requestLocale(c: Context): Locale {
  const chosen = getCookie(c, LOCALE_COOKIE);
  if (isLocale(chosen)) return chosen;
  return negotiateLocale(c.req.header('accept-language')) ?? DEFAULT_LOCALE;
}

const ONE_YEAR = 365 * 24 * 60 * 60;

/** A same-origin path to return to: `/…` but not `//host` or `/\host`. */
export function safeReturnPath(back: string | undefined): string {
  if (!back?.startsWith('/') || back.startsWith('//')) return '/';
  // Backslashes read as slashes in some browsers; control characters split headers.
  for (const char of back)
    if (char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f) return '/';
  return back;
}

export function languageSwitch(sharedDomain: string) {
  return (c: Context) => {
    const to = c.req.query('to');
    if (isLocale(to)) setCookie(c, LOCALE_COOKIE, to, sharedCookieOptions(sharedDomain, ONE_YEAR));
    c.header('Cache-Control', 'no-store');
    return c.redirect(safeReturnPath(c.req.query('back')), 303);
  };
}

/** The cookie that remembers an explicit light or dark choice (none: follow the system). */
export const THEME_COOKIE = 'xv_theme';
export type Theme = 'light' | 'dark';
const isTheme = (value: unknown): value is Theme => value === 'light' || value === 'dark';

/** The theme the reader chose, if they chose one. */
export function requestTheme(c: Context): Theme | undefined {
  const chosen = getCookie(c, THEME_COOKIE);
  return isTheme(chosen) ? chosen : undefined;
}

/**
 * `POST /theme` (`to=light|dark|system`, a form body): the shell script's toggle
 * remembers the choice for every service, which then render it from the first byte.
 */
export function themeSwitch(sharedDomain: string) {
  return async (c: Context) => {
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const to = body.to;
    if (isTheme(to)) setCookie(c, THEME_COOKIE, to, sharedCookieOptions(sharedDomain, ONE_YEAR));
    else if (to === 'system') setCookie(c, THEME_COOKIE, '', sharedCookieOptions(sharedDomain, 0));
    else
      return c.json({ ok: false, error: 'invalid_request', message: 'Send to=light, dark or system.' }, 400);
    c.header('Cache-Control', 'no-store');
    return c.body(null, 204);
  };
}
