/**
 * @module http/forms
 * Telling a browser's form post from an API call, so a page route can answer a failed post with the page
 * (the error next to the form) while API callers keep the JSON error format.
 */
import type { Context } from 'hono';

const FORM_BODY = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * A write sent by a page's `<form>`: its body is form-encoded, or it asks for HTML. A caller that
 * asks for JSON only (and not HTML) is an API client, whatever its body.
 */
export function isBrowserFormPost(c: Context): boolean {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return false;
  const accept = c.req.header('accept') ?? '';
  const wantsHtml = /\btext\/html\b/i.test(accept);
  if (!wantsHtml && /\bapplication\/json\b/i.test(accept)) return false;
  return wantsHtml || FORM_BODY.test(c.req.header('content-type') ?? '');
}
