/**
 * @module http/respond
 * Answering with an identity page: the shared header shows the signed-in person (or "Sign in"), the
 * scripts carry the response's nonce. And a page's failed form post answered as that page, the error
 * next to the form, while API callers keep the JSON error.
 */
import { AppError } from '@xv/platform';
import { isBrowserFormPost } from '@xv/platform/http';
import { renderWithShell, shellOf, viewerOf } from '@xv/platform/pages';
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { MessageKey } from '../messages/index.js';
import type { IdentityContext } from './context.js';
import { IdentityMessage } from './pages/frame.js';

/** The page as the answer, in the request's language and for its viewer; pages that name a person are never cached. */
export async function sendPage(
  identity: IdentityContext,
  c: Context,
  page: Child,
  status: ContentfulStatusCode = 200,
  headers: Record<string, string> = {},
) {
  const session = await identity.currentSession(c);
  const viewer = session ? viewerOf(session.view, c) : undefined;
  return c.html(renderWithShell(shellOf(c, viewer), page), status, {
    'Cache-Control': 'no-store',
    ...headers,
  });
}

/**
 * What a page that says one thing says: catalogue keys (`MessageKey`), the message's values, the link's key.
 * A text that is no key of the catalogue shows as written.
 */
export interface PageMessage {
  title: MessageKey | Text;
  message: MessageKey | Text;
  values?: Record<string, string>;
  link?: { href: string; text: MessageKey | Text };
}

/** Any other text, shown as written. */
type Text = string & {};

/** A page that says one thing (an error or a notice), for the request's viewer. */
export function sendMessage(
  identity: IdentityContext,
  c: Context,
  message: PageMessage,
  status: ContentfulStatusCode = 200,
  headers: Record<string, string> = {},
) {
  return sendPage(identity, c, <IdentityMessage assets={identity.assets} {...message} />, status, headers);
}

/** What a person is told when their form post failed. */
export interface FormError {
  code: string;
  message: string;
  status: ContentfulStatusCode;
}

/**
 * Runs a page's form post. When it fails with an error the person can act on (4xx) and a browser posted
 * the form, `page` answers with the error shown; a step-up request leads to the step-up instead. Anything
 * else, and every failure of an API caller, goes on to the JSON error format.
 */
export async function withFormErrors(
  c: Context,
  work: () => Promise<Response>,
  page: (error: FormError) => Response | Promise<Response>,
): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500 || !isBrowserFormPost(c)) throw error;
    const stepUpUrl = error.extra.stepUpUrl;
    if (typeof stepUpUrl === 'string') return c.redirect(stepUpUrl, 303);
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return page({ code: error.code, message: error.message, status: error.status as ContentfulStatusCode });
  }
}
