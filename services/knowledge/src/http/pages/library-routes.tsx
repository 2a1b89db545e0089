/**
 * @module http/pages/library-routes
 * The members' pages: `/` (home: search box and approved documents, paged),
 * `/library?q=` (search results), `/library/:docId` (the reader; the agent links
 * to this path), `/mine` (the author's documents) and `/mine/:docId` (one of them
 * with the diff the reviewer sees). Every one reads only the caller's active
 * organization; a document of another one is not found, like an unknown id.
 */
import { AppError, type ErrorStatus } from '@xv/platform';
import type { App } from '@xv/platform/http';
import type { ClientAssets } from '@xv/platform/pages';
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { Caller } from '../../access/caller.js';
import { errors } from '../../errors.js';
import type { Knowledge } from '../context.js';
import { ErrorPage } from './layout.js';
import { HomePage, ReaderPage, SearchPage } from './library.js';
import { MinePage, MyDocumentPage } from './mine.js';

type PageHandler = (c: Context, caller: Caller) => Promise<Response>;

export interface PageTools {
  assets: ClientAssets;
  /** Runs a handler for a signed-in caller (others are sent to sign in). */
  page: (handler: PageHandler) => (c: Context) => Promise<Response>;
  html: (c: Context, page: Child, status?: ErrorStatus | 200) => Response;
}

const PAGE_SIZE = 50;
const MAX_PAGE = 10_000;
const MAX_QUERY = 2000;
const SEARCH_RESULTS = 20;
const MAX_DOC_ID = 64;

/** The `page` query parameter: 1 when absent, 400 when not a page number. */
function pageNumber(c: Context): number {
  const text = c.req.query('page');
  if (text === undefined || text === '') return 1;
  const page = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(page >= 1 && page <= MAX_PAGE)) throw errors.invalid_page();
  return page;
}

export function registerLibraryPages(app: App, k: Knowledge, tools: PageTools) {
  const { assets, page, html } = tools;
  const notFound = (c: Context) =>
    html(
      c,
      <ErrorPage
        title="error.documentNotFound"
        message="error.noSuchApproved"
        assets={assets}
        link={{ href: '/', text: 'error.backToLibrary' }}
      />,
      404,
    );

  app.get(
    '/',
    page(async (c, caller) => {
      const current = pageNumber(c);
      const rows = await k.documents.listLive(caller.orgId, {
        limit: PAGE_SIZE + 1,
        offset: (current - 1) * PAGE_SIZE,
      });
      return html(
        c,
        <HomePage
          documents={rows.slice(0, PAGE_SIZE)}
          page={current}
          hasMore={rows.length > PAGE_SIZE}
          assets={assets}
        />,
      );
    }),
  );

  app.get(
    '/library',
    page(async (c, caller) => {
      const query = (c.req.query('q') ?? '').trim();
      if (query.length > MAX_QUERY) throw errors.query_too_long();
      const hits = query ? await k.index.search(caller.orgId, query, SEARCH_RESULTS) : [];
      return html(c, <SearchPage query={query} hits={hits} assets={assets} />);
    }),
  );

  app.get(
    '/library/:docId',
    page(async (c, caller) => {
      const docId = c.req.param('docId') ?? '';
      if (docId.length > MAX_DOC_ID) return notFound(c);
      const doc = await k.documents.detail(caller.orgId, docId).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 404) return undefined;
        throw error;
      });
      if (!doc?.live) return notFound(c);
      const live = doc.live;
      const approval = doc.history.find((h) => h.action === 'approve' && h.revision === live.revision);
      return html(
        c,
        <ReaderPage
          doc={{
            docId: doc.docId,
            path: doc.path,
            title: live.title,
            state: doc.state,
            content: live.content,
            revision: live.revision,
            approvedAt: approval?.at,
          }}
          assets={assets}
        />,
      );
    }),
  );

  app.get(
    '/mine',
    page(async (c, caller) => {
      const current = pageNumber(c);
      const rows = await k.documents.madeBy(caller.orgId, caller.userId, {
        limit: PAGE_SIZE + 1,
        offset: (current - 1) * PAGE_SIZE,
      });
      return html(
        c,
        <MinePage
          documents={rows.slice(0, PAGE_SIZE)}
          email={caller.email}
          page={current}
          hasMore={rows.length > PAGE_SIZE}
          assets={assets}
        />,
      );
    }),
  );

  app.get(
    '/mine/:docId',
    page(async (c, caller) => {
      const docId = c.req.param('docId') ?? '';
      if (docId.length > MAX_DOC_ID) return notFound(c);
      const doc = await k.documents.detail(caller.orgId, docId).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 404) return undefined;
        throw error;
      });
      // Someone else's document is not found here: the author's view is of one's own work.
      if (!doc || doc.makerId !== caller.userId) return notFound(c);
      return html(c, <MyDocumentPage doc={doc} assets={assets} />);
    }),
  );
}
