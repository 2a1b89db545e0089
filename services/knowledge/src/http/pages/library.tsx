/**
 * @module http/pages/library
 * The organization's knowledge for its members: the home page (a search box and
 * the approved documents, paged), the search results and the reader of one
 * approved document. Everything a document or a query brings is text to these
 * pages: Markdown goes through `renderMarkdown`, the rest through JSX escaping.
 */
import { type ClientAssets, LocalTime, richText, useT } from '@xv/platform/pages';
import { raw } from 'hono/html';
import type { DocumentState } from '../../documents/model.js';
import { messages } from '../../messages/index.js';
import type { SearchHit } from '../../search/knowledge-index.js';
import { splitFrontMatter } from './front-matter.js';
import { KnowledgePage } from './layout.js';
import { renderMarkdown } from './markdown.js';
import { highlight, stateLabel } from './words.js';

export function SearchBox(props: { query?: string }) {
  const t = useT(messages);
  return (
    <search>
      <form method="get" action="/library" class="search">
        <label for="q">{t('search.label')}</label>
        <input id="q" name="q" type="search" maxlength={2000} value={props.query ?? ''} required />
        <button type="submit">{t('search.button')}</button>
      </form>
    </search>
  );
}

/** A day in the page's language, with the exact instant for machines (the shell rewrites it in the reader's zone). */
export function When(props: { at: string }) {
  return <LocalTime value={props.at} style="date" />;
}

export interface ApprovedEntry {
  docId: string;
  path: string;
  title: string;
  approvedAt: string;
}

export function HomePage(props: {
  documents: ApprovedEntry[];
  page: number;
  hasMore: boolean;
  assets: ClientAssets;
}) {
  const { page } = props;
  const t = useT(messages);
  return (
    <KnowledgePage title={t('library.title')} assets={props.assets}>
      <h1>{t('library.title')}</h1>
      <SearchBox />
      <h2>{t('library.approved')}</h2>
      {props.documents.length === 0 ? (
        <p class="notice">{page === 1 ? t('library.empty') : t('pager.noMore')}</p>
      ) : (
        <table id="documents">
          <thead>
            <tr>
              <th>{t('column.document')}</th>
              <th>{t('column.path')}</th>
              <th>{t('library.column.approved')}</th>
            </tr>
          </thead>
          <tbody>
            {props.documents.map((d) => (
              <tr>
                <td>
                  <a href={`/library/${encodeURIComponent(d.docId)}`}>{d.title}</a>
                </td>
                <td>{d.path}</td>
                <td>
                  <When at={d.approvedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t('pager.label')}>
        {page > 1 ? <a href={page === 2 ? '/' : `/?page=${page - 1}`}>{t('pager.newer')}</a> : null}
        {props.hasMore ? <a href={`/?page=${page + 1}`}>{t('pager.next')}</a> : null}
      </nav>
    </KnowledgePage>
  );
}

function Highlighted(props: { text: string; query: string }) {
  return (
    <>
      {highlight(props.text, props.query).map((piece) =>
        piece.hit ? <mark>{piece.text}</mark> : piece.text,
      )}
    </>
  );
}

export function SearchPage(props: { query: string; hits: SearchHit[]; assets: ClientAssets }) {
  const { query, hits } = props;
  const t = useT(messages);
  return (
    <KnowledgePage title={query ? t('search.pageTitle', { query }) : t('search.title')} assets={props.assets}>
      <h1>{t('search.title')}</h1>
      <SearchBox query={query} />
      {!query ? null : hits.length === 0 ? (
        <p class="notice">{t('search.none', { query })}</p>
      ) : (
        <ol class="hits" id="hits">
          {hits.map((hit) => (
            <li>
              <a href={`/library/${encodeURIComponent(hit.docId)}`}>{hit.title}</a>
              {hit.headingPath ? <p class="heading-path">{hit.headingPath}</p> : null}
              <p class="passage">
                <Highlighted text={hit.text} query={query} />
              </p>
            </li>
          ))}
        </ol>
      )}
    </KnowledgePage>
  );
}

export interface ReaderDocument {
  docId: string;
  path: string;
  title: string;
  /** The state of the document's newest revision (the reader still shows the approved one). */
  state: DocumentState;
  content: string;
  revision: number;
  approvedAt: string | undefined;
}

export function ReaderPage(props: { doc: ReaderDocument; assets: ClientAssets }) {
  const { doc } = props;
  const t = useT(messages);
  const { entries, body } = splitFrontMatter(doc.content);
  // The page's heading is the title already; the document's own first heading would repeat it.
  const leading = /^\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|$)/.exec(body);
  const shown = leading && leading[1] === doc.title ? body.slice(leading[0].length) : body;
  return (
    <KnowledgePage title={doc.title} assets={props.assets}>
      <p>
        <a href="/">{t('reader.back')}</a>
      </p>
      <h1>{doc.title}</h1>
      <p class="meta">
        <span class="state">{stateLabel(t, 'approved')}</span>
        {doc.state === 'approved' ? null : (
          <>
            {' '}
            · {t('reader.newerRevision')} <span class="state">{stateLabel(t, doc.state)}</span>
          </>
        )}{' '}
        · {doc.path} · {t('document.revision', { revision: doc.revision })}
        {doc.approvedAt ? (
          <> · {richText(t('reader.approvedOn'), { date: <When at={doc.approvedAt} /> })}</>
        ) : null}
      </p>
      {entries.length === 0 ? null : (
        <table class="front-matter" id="front-matter" aria-label={t('reader.frontMatter')}>
          <tbody>
            {entries.map((e) => (
              <tr>
                <th scope="row">{e.key}</th>
                <td>{e.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <article class="card doc" id="rendered">
        {raw(renderMarkdown(shown))}
      </article>
    </KnowledgePage>
  );
}
