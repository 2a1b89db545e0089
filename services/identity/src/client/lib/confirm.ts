/**
 * @module client/lib/confirm
 * Destructive actions ask first, in the page's `<dialog id="confirm-dialog">` (pages/confirm.tsx): the
 * action's wording, Cancel focused by default, Escape cancels. Marked elements (`data-confirm` with
 * `data-api-method`, `data-api-path`, `data-after`, `data-status`) then call the API and update their card.
 */
import { type Answer, messageOf, show, xv } from './api.js';
import { find } from './dom.js';
import { t } from './i18n.js';

/** Opens the dialog with `wording`; true when the person chose `button` rather than Cancel. */
export function confirmFirst(wording: string, button: string): Promise<boolean> {
  const dialog = find('confirm-dialog', HTMLDialogElement);
  const text = find('confirm-text', HTMLElement);
  const title = find('confirm-title', HTMLElement);
  const go = find('confirm-go', HTMLButtonElement);
  if (!dialog || !text || !title || !go) return Promise.resolve(false);
  title.textContent = t('confirm.question', { action: button });
  text.textContent = wording;
  go.textContent = button;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.showModal();
  });
}

/** What a confirmed action does to its card once the API agreed, by `data-after`. */
export type AfterCall = (element: HTMLElement, answer: Answer) => void;

/**
 * Runs every marked action of the page, rows added later included. A `<details>` (the second step
 * without script) opens the dialog from its summary instead of unfolding.
 */
export function wireConfirmedActions(after: Record<string, AfterCall>, afterAny?: () => void) {
  document.addEventListener('click', async (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const summary = target?.closest('summary');
    const element = summary ? summary.parentElement : target?.closest('button');
    if (!(element instanceof HTMLElement) || !element.matches('[data-confirm][data-api-path]')) return;
    event.preventDefault();
    const {
      confirm: wording = '',
      confirmButton = t('confirm.confirm'),
      apiMethod = 'POST',
      apiPath = '',
    } = element.dataset;
    if (!(await confirmFirst(wording, confirmButton))) return;
    const status = element.dataset.status ?? '';
    try {
      const answer = await xv(apiPath, apiMethod === 'POST' ? {} : undefined, apiMethod);
      after[element.dataset.after ?? '']?.(element, answer);
      show(status, element.dataset.done ?? t('confirm.done'));
      afterAny?.();
    } catch (error) {
      show(status, messageOf(error), true);
    }
  });
}
