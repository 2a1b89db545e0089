/**
 * @module http/pages/review
 * The reviewer's pages: the queue of documents under review, and one document
 * with its rendered Markdown, the diff against the approved revision it would
 * replace, the decision form, whether it is public, and the history.
 *
 * The decision form carries the content hash of the revision the page rendered, so
 * the decision is about what the reviewer read. When the document changed before
 * they decided, the page comes back with what changed since (`changedSince`) and a
 * form naming the current revision.
 */

import { type ClientAssets, LocalTime, useT } from '@xv/platform/pages';
import { diffLines } from 'diff';
import { raw } from 'hono/html';
import type { DocumentDetail, DocumentSummary } from '../../documents/model.js';
import { messages } from '../../messages/index.js';
import { KnowledgePage, type PageError } from './layout.js';
import { renderMarkdown } from './markdown.js';
import { errorText, historyAction, stateLabel } from './words.js';

export function QueuePage(props: { documents: DocumentSummary[]; email: string; assets: ClientAssets }) {
  const t = useT(messages);
  return (
    <KnowledgePage title={t('review.title')} section="review" assets={props.assets}>
      <h1>{t('review.heading')}</h1>
      <p>{t('review.signedInAs', { email: props.email })}</p>
      {props.documents.length === 0 ? (
        <p class="notice">{t('review.empty')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t('column.document')}</th>
              <th>{t('column.path')}</th>
              <th>{t('column.revision')}</th>
              <th>{t('review.column.maker')}</th>
              <th>{t('column.updated')}</th>
            </tr>
          </thead>
          <tbody>
            {props.documents.map((d) => (
              <tr>
                <td>
                  <a href={`/review/${d.docId}`}>{d.title}</a>
                </td>
                <td>{d.path}</td>
                <td>{d.revision}</td>
                <td>{d.maker}</td>
                <td>
                  <LocalTime value={d.updatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </KnowledgePage>
  );
}

export function DocumentPage(props: {
  doc: DocumentDetail;
  callerId: string;
  assets: ClientAssets;
  /** Why the last decision did not go through. */
  error?: PageError | undefined;
  /** The text of the revision the reviewer saw, when the document changed since. */
  changedSince?: string | undefined;
}) {
  const { doc } = props;
  const canDecide = doc.state === 'under_review' && doc.makerId !== props.callerId;
  const retirement = doc.kind === 'retirement';
  const t = useT(messages);
  return (
    <KnowledgePage title={doc.title} section="review" assets={props.assets}>
      <p>
        <a href="/review">{t('review.back')}</a>
      </p>
      <h1>{doc.title}</h1>
      <p>
        <span class="state" data-state={doc.state}>
          {stateLabel(t, doc.state)}
        </span>{' '}
        · {doc.path} · {t('review.revisionBy', { revision: doc.revision, maker: doc.maker })}
      </p>
      {props.error ? <p class="error">{errorText(t, props.error)}</p> : null}
      {props.changedSince === undefined ? null : (
        <>
          <h2>{t('review.changedSince')}</h2>
          <Diff id="changed-since" before={props.changedSince} after={retirement ? '' : doc.content} />
        </>
      )}
      {canDecide ? (
        <form method="post" action={`/review/${doc.docId}/decide`} class="card decision">
          <input type="hidden" name="revision" value={doc.hash} />
          <label for="note">{t('review.note')}</label>
          <textarea id="note" name="note" maxlength={2000} />
          <p>
            <button type="submit" name="decision" value="approve">
              {retirement ? t('review.approveRetirement') : t('review.approve')}
            </button>
            <button type="submit" name="decision" value="reject">
              {t('review.reject')}
            </button>
          </p>
        </form>
      ) : doc.state === 'under_review' ? (
        <p class="notice">{t('review.ownRevision')}</p>
      ) : null}
      {retirement ? (
        <p class="notice">
          {doc.live ? t('review.retirement', { revision: doc.live.revision }) : t('review.retirementNoLive')}
        </p>
      ) : null}
      {doc.live ? (
        <form method="post" action={`/review/${doc.docId}/visibility`} class="card" id="visibility">
          <p>{doc.public ? t('review.public') : t('review.internal')}</p>
          <button type="submit" name="public" value={doc.public ? '0' : '1'}>
            {doc.public ? t('review.makeInternal') : t('review.makePublic')}
          </button>
        </form>
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
      <h2>{t('history.title')}</h2>
      <table id="history">
        <thead>
          <tr>
            <th>{t('history.when')}</th>
            <th>{t('column.revision')}</th>
            <th>{t('history.step')}</th>
            <th>{t('history.hash')}</th>
            <th>{t('history.by')}</th>
            <th>{t('history.note')}</th>
          </tr>
        </thead>
        <tbody>
          {doc.history.map((h) => (
            <tr>
              <td>
                <LocalTime value={h.at} />
              </td>
              <td>{h.revision}</td>
              <td>{historyAction(t, h.action)}</td>
              <td>{h.hash ? <code title={h.hash}>{h.hash.slice(0, 12)}</code> : ''}</td>
              <td>{h.actor}</td>
              <td>{h.note ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </KnowledgePage>
  );
}

/** The lines `after` adds to and removes from `before`, as the reviewer sees them. */
export function Diff(props: { id: string; before: string; after: string }) {
  const parts = diffLines(props.before, props.after);
  return (
    <div class="diff" id={props.id}>
      {parts.map((part) =>
        part.added ? (
          <ins>{part.value}</ins>
        ) : part.removed ? (
          <del>{part.value}</del>
        ) : (
          <span>{part.value}</span>
        ),
      )}
    </div>
  );
}
