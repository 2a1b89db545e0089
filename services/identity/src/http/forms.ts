/**
 * @module http/forms
 * Reading a browser's form post, building the addresses the sign-in flows
 * redirect to, and keeping what a person typed across the spec's 303 after a
 * failed sign-in or registration.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

/** The string fields of a form post; anything else (files, a non-form body) is ignored. */
export async function readForm(c: Context): Promise<Record<string, string>> {
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody();
  } catch {
    return {};
  }
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form[name] = value;
  return form;
}

/** `path?a=1&b=2`, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** How long what was typed waits for the page the failed post redirects to. */
const TYPED_SECONDS = 120;
const typedCookie = (form: string) => `xv_typed_${form}`;

/**
 * Keeps the fields a person typed (never a password) for the page `path` that a failed form post
 * redirects to, where `takeTyped` puts them back in the form. The address stays the spec's own
 * (`/login?error=1`): the values ride in a short-lived cookie only that page reads.
 */
export function keepTyped(
  c: Context,
  form: string,
  path: string,
  values: Record<string, string | undefined>,
) {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value) kept[name] = value.slice(0, 254);
  setCookie(c, typedCookie(form), encodeURIComponent(JSON.stringify(kept)), {
    path,
    httpOnly: true,
    sameSite: 'Strict',
    maxAge: TYPED_SECONDS,
  });
}

/** What `keepTyped` kept for this form, once: the cookie is cleared as it is read. */
export function takeTyped(c: Context, form: string, path: string): Record<string, string> {
  const raw = getCookie(c, typedCookie(form));
  if (raw === undefined) return {};
  deleteCookie(c, typedCookie(form), { path });
  try {
    const parsed: unknown = JSON.parse(decodeURIComponent(raw));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const typed: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed)) if (typeof value === 'string') typed[name] = value;
    return typed;
  } catch {
    return {};
  }
}
