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

import type { ClientAssets } from '@xv/platform/pages';
import { diffLines } from 'diff';
import { raw } from 'hono/html';
import type { DocumentDetail, DocumentSummary } from '../../documents/model.js';
import { KnowledgePage } from './layout.js';
import { renderMarkdown } from './markdown.js';
import { stateLabel } from './words.js';

export function QueuePage(props: { documents: DocumentSummary[]; email: string; assets: ClientAssets }) {
  return (
    <KnowledgePage title="Review queue" section="review" assets={props.assets}>
      <h1>Waiting for review</h1>
      <p>Signed in as {props.email}. A reviewer cannot decide on a revision they made.</p>
      {props.documents.length === 0 ? (
        <p class="notice">Nothing is waiting for review.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Document</th>
              <th>Path</th>
              <th>Revision</th>
              <th>Maker</th>
              <th>Updated</th>
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
                <td>{d.updatedAt}</td>
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
  message?: string | undefined;
  /** The text of the revision the reviewer saw, when the document changed since. */
  changedSince?: string | undefined;
}) {
  const { doc } = props;
  const canDecide = doc.state === 'under_review' && doc.makerId !== props.callerId;
  const retirement = doc.kind === 'retirement';
  return (
    <KnowledgePage title={doc.title} section="review" assets={props.assets}>
      <p>
        <a href="/review">← Review queue</a>
      </p>
      <h1>{doc.title}</h1>
      <p>
        <span class="state" data-state={doc.state}>
          {stateLabel(doc.state)}
        </span>{' '}
        · {doc.path} · revision {doc.revision} by {doc.maker}
      </p>
      {props.message ? <p class="error">{props.message}</p> : null}
      {props.changedSince === undefined ? null : (
        <>
          <h2>Changed since you opened it</h2>
          <Diff id="changed-since" before={props.changedSince} after={retirement ? '' : doc.content} />
        </>
      )}
      {canDecide ? (
        <form method="post" action={`/review/${doc.docId}/decide`} class="card decision">
          <input type="hidden" name="revision" value={doc.hash} />
          <label for="note">Note for the audit trail</label>
          <textarea id="note" name="note" maxlength={2000} />
          <p>
            <button type="submit" name="decision" value="approve">
              {retirement ? 'Approve retirement' : 'Approve'}
            </button>
            <button type="submit" name="decision" value="reject">
              Reject
            </button>
          </p>
        </form>
      ) : doc.state === 'under_review' ? (
        <p class="notice">You made this revision, so another reviewer must decide on it.</p>
      ) : null}
      {retirement ? (
        <p class="notice">
          The file was deleted from the vault. Approving takes the document out of search; rejecting keeps the
          approved revision {doc.live ? doc.live.revision : ''} searchable.
        </p>
      ) : null}
      {doc.live ? (
        <form method="post" action={`/review/${doc.docId}/visibility`} class="card" id="visibility">
          <p>
            {doc.public
              ? "Public: the organization's public assistant may show its approved text to anyone."
              : 'Internal: only members of the organization can search it.'}
          </p>
          <button type="submit" name="public" value={doc.public ? '0' : '1'}>
            {doc.public ? 'Make internal' : 'Make public'}
          </button>
        </form>
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
      <h2>History</h2>
      <table>
        <tbody>
          {doc.history.map((h) => (
            <tr>
              <td>{h.at}</td>
              <td>revision {h.revision}</td>
              <td>{h.action}</td>
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
