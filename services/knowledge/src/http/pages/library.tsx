/**
 * @module http/pages/library
 * The organization's knowledge for its members: the home page (a search box and
 * the approved documents, paged), the search results and the reader of one
 * approved document. Everything a document or a query brings is text to these
 * pages: Markdown goes through `renderMarkdown`, the rest through JSX escaping.
 */
import type { ClientAssets } from '@xv/platform/pages';
import { raw } from 'hono/html';
import type { DocumentState } from '../../documents/model.js';
import type { SearchHit } from '../../search/knowledge-index.js';
import { splitFrontMatter } from './front-matter.js';
import { KnowledgePage } from './layout.js';
import { renderMarkdown } from './markdown.js';
import { formatDate, highlight, stateLabel } from './words.js';

export function SearchBox(props: { query?: string }) {
  return (
    <search>
      <form method="get" action="/library" class="search">
        <label for="q">Search the knowledge base</label>
        <input id="q" name="q" type="search" maxlength={2000} value={props.query ?? ''} required />
        <button type="submit">Search</button>
      </form>
    </search>
  );
}

/** A date as the reader writes it, with the exact instant for machines. */
export function When(props: { at: string; locale: string }) {
  return <time datetime={props.at}>{formatDate(props.at, props.locale)}</time>;
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
  locale: string;
  assets: ClientAssets;
}) {
  const { page } = props;
  return (
    <KnowledgePage title="Library" assets={props.assets}>
      <h1>Library</h1>
      <SearchBox />
      <h2>Approved documents</h2>
      {props.documents.length === 0 ? (
        <p class="notice">
          {page === 1 ? 'No document has been approved yet.' : 'There are no more documents.'}
        </p>
      ) : (
        <table id="documents">
          <thead>
            <tr>
              <th>Document</th>
              <th>Path</th>
              <th>Approved</th>
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
                  <When at={d.approvedAt} locale={props.locale} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label="Pages">
        {page > 1 ? <a href={page === 2 ? '/' : `/?page=${page - 1}`}>← Newer page</a> : null}
        {props.hasMore ? <a href={`/?page=${page + 1}`}>Next page →</a> : null}
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
  return (
    <KnowledgePage title={query ? `${query} – search` : 'Search'} assets={props.assets}>
      <h1>Search</h1>
      <SearchBox query={query} />
      {!query ? null : hits.length === 0 ? (
        <p class="notice">No approved document matches “{query}”.</p>
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

export function ReaderPage(props: { doc: ReaderDocument; locale: string; assets: ClientAssets }) {
  const { doc } = props;
  const { entries, body } = splitFrontMatter(doc.content);
  // The page's heading is the title already; the document's own first heading would repeat it.
  const leading = /^\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|$)/.exec(body);
  const shown = leading && leading[1] === doc.title ? body.slice(leading[0].length) : body;
  return (
    <KnowledgePage title={doc.title} assets={props.assets}>
      <p>
        <a href="/">← Library</a>
      </p>
      <h1>{doc.title}</h1>
      <p class="meta">
        <span class="state">Approved</span>
        {doc.state === 'approved' ? null : (
          <>
            {' '}
            · newer revision: <span class="state">{stateLabel(doc.state)}</span>
          </>
        )}{' '}
        · {doc.path} · revision {doc.revision}
        {doc.approvedAt ? (
          <>
            {' '}
            · approved <When at={doc.approvedAt} locale={props.locale} />
          </>
        ) : null}
      </p>
      {entries.length === 0 ? null : (
        <table class="front-matter" id="front-matter">
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
