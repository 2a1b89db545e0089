/**
 * @module client/lib/api
 * JSON calls from the identity pages to the service, and the status lines that
 * report how they went.
 */

import { errorText } from '../../messages/index.js';
import { t } from './i18n.js';

/** What the service answers; errors carry `error` and `message`, a step-up request `stepUpUrl`. */
export type Answer = Record<string, unknown>;

/**
 * Calls the service (POST by default) with a JSON body. An authenticator change that
 * needs a recent AAL2 proof leads the person through the step-up, back to this page.
 */
export async function xv(path: string, body?: unknown, method = 'POST'): Promise<Answer> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json: Answer = await response.json().then(
    (value: unknown) => (typeof value === 'object' && value !== null ? (value as Answer) : {}),
    () => ({}),
  );
  if (json.error === 'step_up_required' && typeof json.stepUpUrl === 'string') {
    location.href = json.stepUpUrl;
    throw new Error(t('api.stepUp'));
  }
  if (!response.ok) throw new Error(errorWording(json, response.status));
  return json;
}

/** The page's wording of an error answer: the catalogue's for its code, else the service's message. */
function errorWording(json: Answer, status: number): string {
  const message =
    typeof json.message === 'string' ? json.message : t('api.failed', { status: String(status) });
  return errorText(t, { code: typeof json.error === 'string' ? json.error : undefined, message });
}

/** The text of a string field of an answer ('' when absent). */
export function text(answer: Answer, field: string): string {
  const value = answer[field];
  return typeof value === 'string' ? value : '';
}

/** Shows `message` in the status line `id`, as an error or a notice. */
export function show(id: string, message: string, isError = false) {
  const element = document.getElementById(id);
  if (!element) return;
  element.textContent = message;
  element.className = isError ? 'error' : 'notice';
}

/** The message of whatever a failed call threw. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
