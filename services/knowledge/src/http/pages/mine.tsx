/**
 * @module http/pages/mine
 * The author's view: the documents whose newest revision the signed-in person
 * made, with their state in words and the reviewer's note on a rejected one; and
 * one of them with the diff the reviewer sees (against the approved revision).
 */
import type { ClientAssets } from '@xv/platform/pages';
import { raw } from 'hono/html';
import type { DocumentDetail, DocumentSummary } from '../../documents/model.js';
import { KnowledgePage } from './layout.js';
import { When } from './library.js';
import { renderMarkdown } from './markdown.js';
import { Diff } from './review.js';
import { stateLabel } from './words.js';

export function MinePage(props: {
  documents: (DocumentSummary & { note: string | null })[];
  email: string;
  page: number;
  hasMore: boolean;
  locale: string;
  assets: ClientAssets;
}) {
  const { page } = props;
  return (
    <KnowledgePage title="My documents" assets={props.assets}>
      <h1>My documents</h1>
      <p>Documents whose latest revision you ({props.email}) made, newest first.</p>
      {props.documents.length === 0 ? (
        <p class="notice">
          {page === 1 ? 'You have not pushed any document yet.' : 'There are no more documents.'}
        </p>
      ) : (
        <table id="mine">
          <thead>
            <tr>
              <th>Document</th>
              <th>Path</th>
              <th>State</th>
              <th>Updated</th>
              <th>Reviewer’s note</th>
            </tr>
          </thead>
          <tbody>
            {props.documents.map((d) => (
              <tr>
                <td>
                  <a href={`/mine/${encodeURIComponent(d.docId)}`}>{d.title}</a>
                </td>
                <td>{d.path}</td>
                <td>
                  <span class="state">{stateLabel(d.state)}</span>
                </td>
                <td>
                  <When at={d.updatedAt} locale={props.locale} />
                </td>
                <td>{d.note ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label="Pages">
        {page > 1 ? <a href={page === 2 ? '/mine' : `/mine?page=${page - 1}`}>← Newer page</a> : null}
        {props.hasMore ? <a href={`/mine?page=${page + 1}`}>Next page →</a> : null}
      </nav>
    </KnowledgePage>
  );
}

export function MyDocumentPage(props: { doc: DocumentDetail; locale: string; assets: ClientAssets }) {
  const { doc } = props;
  const retirement = doc.kind === 'retirement';
  const rejection =
    doc.state === 'rejected'
      ? doc.history.find((h) => h.action === 'reject' && h.revision === doc.revision)
      : undefined;
  return (
    <KnowledgePage title={doc.title} assets={props.assets}>
      <p>
        <a href="/mine">← My documents</a>
      </p>
      <h1>{doc.title}</h1>
      <p class="meta">
        <span class="state">{stateLabel(doc.state)}</span> · {doc.path} · revision {doc.revision} · updated{' '}
        <When at={doc.updatedAt} locale={props.locale} />
        {doc.live ? (
          <>
            {' '}
            · <a href={`/library/${encodeURIComponent(doc.docId)}`}>approved revision {doc.live.revision}</a>
          </>
        ) : null}
      </p>
      {rejection ? (
        <div class="notice" id="rejection">
          <p>
            Rejected by {rejection.actor} on <When at={rejection.at} locale={props.locale} />.
          </p>
          {rejection.note ? <blockquote>{rejection.note}</blockquote> : null}
        </div>
      ) : null}
      <h2>Changes against the approved revision</h2>
      {doc.live ? null : <p>No revision of this document has been approved yet.</p>}
      <Diff id="diff" before={doc.live?.content ?? ''} after={retirement ? '' : doc.content} />
      {retirement ? null : (
        <>
          <h2>Rendered</h2>
          <article class="card doc" id="rendered">
            {raw(renderMarkdown(doc.content))}
          </article>
        </>
      )}
    </KnowledgePage>
  );
}
