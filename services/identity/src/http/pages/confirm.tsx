/**
 * @module http/pages/confirm
 * Destructive actions ask first. The page holds one `<dialog>` (Cancel is its default button and Escape
 * cancels); `client/lib/confirm.ts` opens it with the action's own wording before calling the API.
 * Without script each one is a second step: a `<details>` that unfolds the form and its wording. The wording is in `data-confirm`, the dialog's button in `data-confirm-button`.
 */

import { useT } from '@xv/platform/pages';
import { messages } from '../../messages/index.js';

/** The page's one confirmation dialog, filled in by the script for each action. */
export function ConfirmDialog() {
  const t = useT(messages);
  return (
    <dialog id="confirm-dialog" aria-labelledby="confirm-title" aria-describedby="confirm-text">
      <form method="dialog">
        <h2 id="confirm-title">{t('confirm.title')}</h2>
        <p id="confirm-text" />
        <div class="dialog-buttons">
          <button type="submit" value="cancel" class="secondary" autofocus>
            {t('confirm.cancel')}
          </button>
          <button type="submit" value="confirm" class="danger" id="confirm-go">
            {t('confirm.confirm')}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** What the script calls once the person confirmed, and what it then updates in the card. */
export interface ApiCall {
  method: 'DELETE' | 'POST';
  path: string;
  /** The card update `client/account.ts` runs after the call (`remove-row`, `sessions-others`, …). */
  after: string;
  /** The status line of the card, and what it says once done. */
  status: string;
  done: string;
}

function apiAttributes(api: ApiCall, wording: string, button: string) {
  return {
    'data-confirm': wording,
    'data-confirm-button': button,
    'data-api-method': api.method,
    'data-api-path': api.path,
    'data-after': api.after,
    'data-status': api.status,
    'data-done': api.done,
  };
}

/** A destructive form post: a second step without script, the dialog and the API with it. */
export function ConfirmForm(props: {
  summary: string;
  wording: string;
  button: string;
  action: string;
  api: ApiCall;
  wide?: boolean;
}) {
  return (
    <details class="confirm" {...apiAttributes(props.api, props.wording, props.button)}>
      <summary>{props.summary}</summary>
      <form method="post" action={props.action}>
        <p>{props.wording}</p>
        <button type="submit" class={props.wide ? 'danger' : 'danger inline'}>
          {props.button}
        </button>
      </form>
    </details>
  );
}
