/**
 * @module http/forms
 * Reading a browser's form post, and building the addresses the sign-in flows
 * redirect to.
 */
import type { Context } from 'hono';

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
