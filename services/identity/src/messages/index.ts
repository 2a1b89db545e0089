import { defineMessages, type Translate } from '@xv/platform/i18n';
import { en } from './en.js';
import { vi } from './vi.js';

/** The identity service's catalogue, one per language. */
export const messages = defineMessages(en, vi);
export type MessageKey = keyof typeof en;
export type IdentityT = Translate<typeof en>;

/**
 * The wording of an error a page shows: the catalogue's for the error's code, else the error's own
 * message (a shared code's general wording when the page is not in English).
 */
export function errorText(t: IdentityT, error: { code?: string | undefined; message: string }): string {
  const own = `error.${error.code}`;
  if (t.has(own)) return t(own);
  const shared = `errorGeneric.${error.code}`;
  return t.locale !== 'en' && t.has(shared) ? t(shared) : error.message;
}

/** A role's label (forms keep submitting the code). */
export function roleLabel(t: IdentityT, role: string): string {
  return wordingOf(t, `role.${role}`, role);
}

/** The catalogue's wording of a key made at run time (an event's kind, a scope), else `fallback`. */
export function wordingOf(t: IdentityT, key: string, fallback: string): string {
  return t.has(key) ? t(key) : fallback;
}
