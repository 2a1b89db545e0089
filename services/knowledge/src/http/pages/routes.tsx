/**
 * @module http/pages/routes
 * Browser pages: the members' library (`/`, `/library`, `/mine`: library-routes.tsx),
 * `/review` (queue), `/review/:docId` (document, diff, decision,
 * public or internal, history) and `/tokens` (personal access tokens). Without a session they send
 * the browser to the identity service's login page and back. Forms post to the
 * same pages; the platform's CSRF check refuses cross-site posts. The pages'
 * stylesheets are served from `/assets/` (`registerClientAssets`).
 */

import { AppError, type ErrorStatus } from '@xv/platform';
import type { App } from '@xv/platform/http';
import { registerClientAssets, renderWithShell, shellOf, type Viewer } from '@xv/platform/pages';
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { type Caller, SCOPES, type Scope } from '../../access/caller.js';
import { parseHash } from '../../documents/hash.js';
import type { MessageKey } from '../../messages/index.js';
import type { Knowledge } from '../context.js';
import { ErrorPage, type PageError } from './layout.js';
import { registerLibraryPages } from './library-routes.js';
import { DocumentPage, QueuePage } from './review.js';
import { TokensPage } from './tokens.js';

type PageHandler = (c: Context, caller: Caller) => Promise<Response>;

/** Who each page request is for, as the header shows them (set by `page`). */
const viewers = new WeakMap<Context, Viewer>();

/** A page as an HTML document (with its doctype) in the request's language, its header showing the signed-in person. */
function html(c: Context, page: Child, status: ErrorStatus | 200 = 200) {
  return c.html(renderWithShell(shellOf(c, viewers.get(c)), page), status);
}

export async function registerPages(app: App, k: Knowledge) {
  const assets = await registerClientAssets(app, import.meta.url);
  const message = (c: Context, title: MessageKey, text: MessageKey | PageError, status: ErrorStatus) => {
    const link = c.req.path.startsWith('/review')
      ? undefined
      : ({ href: '/', text: 'error.backToLibrary' } as const);
    return html(c, <ErrorPage title={title} message={text} assets={assets} link={link} />, status);
  };

  /** Runs a page for a signed-in caller; errors become a page, not JSON. */
  const page =
    (handler: PageHandler) =>
    async (c: Context): Promise<Response> => {
      let caller: Caller | undefined;
      try {
        caller = await k.auth.sessionCaller(c);
      } catch (error) {
        if (error instanceof AppError) return message(c, 'error.cannotContinue', error, error.status);
        throw error;
      }
      const viewer = caller ? await k.auth.viewer(c) : undefined;
      if (viewer) viewers.set(c, viewer);
      if (!caller) {
        const back = `${k.url}${c.req.path}`;
        return c.redirect(`${k.identityUrl}/login?redirect=${encodeURIComponent(back)}`, 302);
      }
      try {
        return await handler(c, caller);
      } catch (error) {
        if (error instanceof AppError) return message(c, 'error.notPossible', error, error.status);
        throw error;
      }
    };

  registerLibraryPages(app, k, { assets, page, html });

  app.get(
    '/review',
    page(async (c) => {
      const caller = await k.auth.reviewer(c);
      const documents = await k.documents.list(caller.orgId, {
        state: 'under_review',
        limit: 100,
        offset: 0,
      });
      return html(c, <QueuePage documents={documents} email={caller.email} assets={assets} />);
    }),
  );

  app.get(
    '/review/:docId',
    page(async (c) => {
      const caller = await k.auth.reviewer(c);
      const doc = await k.documents.detail(caller.orgId, c.req.param('docId') ?? '');
      return html(c, <DocumentPage doc={doc} callerId={caller.userId} assets={assets} />);
    }),
  );

  app.post(
    '/review/:docId/decide',
    page(async (c, caller) => {
      const docId = c.req.param('docId') ?? '';
      const form = await c.req.parseBody();
      const decision = form.decision;
      const note = typeof form.note === 'string' ? form.note.slice(0, 2000) : undefined;
      // The hash of the revision the page showed; a form without one decides like an API call without one.
      const revision = typeof form.revision === 'string' ? form.revision : undefined;
      if (decision !== 'approve' && decision !== 'reject')
        return message(c, 'error.notPossible', 'review.chooseDecision', 400);
      try {
        await k.review.decide(caller, docId, decision, note, revision);
      } catch (error) {
        if (!(error instanceof AppError) || error.status === 404) throw error;
        const doc = await k.documents.detail(caller.orgId, docId);
        const seen = revision === undefined ? undefined : parseHash(revision);
        const changedSince =
          seen && seen !== doc.hash
            ? await k.documents.revisionContent(caller.orgId, docId, seen)
            : undefined;
        return html(
          c,
          <DocumentPage
            doc={doc}
            callerId={caller.userId}
            assets={assets}
            error={error}
            changedSince={changedSince}
          />,
          error.status,
        );
      }
      return c.redirect(`/review/${encodeURIComponent(docId)}`, 303);
    }),
  );

  app.post(
    '/review/:docId/visibility',
    page(async (c, caller) => {
      const docId = c.req.param('docId') ?? '';
      const form = await c.req.parseBody();
      await k.review.setVisibility(caller, docId, form.public === '1');
      return c.redirect(`/review/${encodeURIComponent(docId)}`, 303);
    }),
  );

  app.get(
    '/tokens',
    page(async (c, caller) =>
      html(c, <TokensPage tokens={await k.tokens.list(caller)} email={caller.email} assets={assets} />),
    ),
  );

  app.post(
    '/tokens',
    page(async (c, caller) => {
      const form = await c.req.parseBody({ all: true });
      const name = typeof form.name === 'string' ? form.name.trim().slice(0, 100) : '';
      const requested = ([] as unknown[]).concat(form.scopes ?? []);
      const scopes: Scope[] = SCOPES.filter((s) => requested.includes(s));
      if (!name || scopes.length === 0) {
        const tokens = await k.tokens.list(caller);
        return html(c, <TokensPage tokens={tokens} email={caller.email} assets={assets} invalid />, 400);
      }
      const created = await k.tokens.create(caller, name, scopes);
      // The secret is shown once, in this response; never cache it.
      c.header('Cache-Control', 'no-store');
      return html(
        c,
        <TokensPage
          tokens={await k.tokens.list(caller)}
          email={caller.email}
          assets={assets}
          created={{ name, token: created.token }}
        />,
      );
    }),
  );

  app.post(
    '/tokens/:id/revoke',
    page(async (c, caller) => {
      await k.tokens.revoke(caller, c.req.param('id') ?? '');
      return c.redirect('/tokens', 303);
    }),
  );
}
