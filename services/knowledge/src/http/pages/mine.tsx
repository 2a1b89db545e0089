/**
 * @module http/pages/mine
 * The author's view: the documents whose newest revision the signed-in person
 * made, with their state in words and the reviewer's note on a rejected one; and
 * one of them with the diff the reviewer sees (against the approved revision).
 */
import { type ClientAssets, richText, useT } from '@xv/platform/pages';
import { raw } from 'hono/html';
import type { DocumentDetail, DocumentSummary } from '../../documents/model.js';
import { messages } from '../../messages/index.js';
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
  assets: ClientAssets;
}) {
  const { page } = props;
  const t = useT(messages);
  return (
    <KnowledgePage title={t('mine.title')} assets={props.assets}>
      <h1>{t('mine.title')}</h1>
      <p>{t('mine.intro', { email: props.email })}</p>
      {props.documents.length === 0 ? (
        <p class="notice">{page === 1 ? t('mine.empty') : t('pager.noMore')}</p>
      ) : (
        <table id="mine">
          <thead>
            <tr>
              <th>{t('column.document')}</th>
              <th>{t('column.path')}</th>
              <th>{t('column.state')}</th>
              <th>{t('column.updated')}</th>
              <th>{t('mine.column.note')}</th>
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
                  <span class="state">{stateLabel(t, d.state)}</span>
                </td>
                <td>
                  <When at={d.updatedAt} />
                </td>
                <td>{d.note ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t('pager.label')}>
        {page > 1 ? <a href={page === 2 ? '/mine' : `/mine?page=${page - 1}`}>{t('pager.newer')}</a> : null}
        {props.hasMore ? <a href={`/mine?page=${page + 1}`}>{t('pager.next')}</a> : null}
      </nav>
    </KnowledgePage>
  );
}

export function MyDocumentPage(props: { doc: DocumentDetail; assets: ClientAssets }) {
  const { doc } = props;
  const t = useT(messages);
  const retirement = doc.kind === 'retirement';
  const rejection =
    doc.state === 'rejected'
      ? doc.history.find((h) => h.action === 'reject' && h.revision === doc.revision)
      : undefined;
  return (
    <KnowledgePage title={doc.title} assets={props.assets}>
      <p>
        <a href="/mine">{t('mine.back')}</a>
      </p>
      <h1>{doc.title}</h1>
      <p class="meta">
        <span class="state">{stateLabel(t, doc.state)}</span> · {doc.path} ·{' '}
        {t('document.revision', { revision: doc.revision })} ·{' '}
        {richText(t('mine.updatedOn'), { date: <When at={doc.updatedAt} /> })}
        {doc.live ? (
          <>
            {' '}
            ·{' '}
            <a href={`/library/${encodeURIComponent(doc.docId)}`}>
              {t('mine.approvedRevision', { revision: doc.live.revision })}
            </a>
          </>
        ) : null}
      </p>
      {rejection ? (
        <div class="notice" id="rejection">
          <p>
            {richText(t('mine.rejectedBy'), { actor: rejection.actor, date: <When at={rejection.at} /> })}
          </p>
          {rejection.note ? <blockquote>{rejection.note}</blockquote> : null}
        </div>
      ) : null}
      <h2>{t('document.changes')}</h2>
      {doc.live ? null : <p>{t('document.noneApproved')}</p>}
      <Diff id="diff" before={doc.live?.content ?? ''} after={retirement ? '' : doc.content} />
      {retirement ? null : (
        <>
          <h2>{t('document.rendered')}</h2>
          <article class="card doc" id="rendered">
            {raw(renderMarkdown(doc.content))}
          </article>
        </>
      )}
    </KnowledgePage>
  );
}
