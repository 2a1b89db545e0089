/**
 * @module client/credentials
 * The credential page's copy buttons: `data-copy` holds the text to copy,
 * `data-copy-from` names the field whose value to copy (the SD-JWT). The result
 * shows in the page's status line, in the page's words: each button's `data-copied`,
 * and the status line's `data-refused` when the browser refuses.
 */
import { find, forEachMarked } from './lib/dom.js';

const status = find('copy-status', HTMLElement);

async function copy(text: string, button: HTMLButtonElement) {
  try {
    await navigator.clipboard.writeText(text);
    if (status) status.textContent = button.dataset.copied ?? '';
  } catch {
    if (status) status.textContent = status.dataset.refused ?? '';
  }
}

forEachMarked('data-copy', HTMLButtonElement, (button, value) => {
  button.addEventListener('click', () => void copy(value, button));
});

forEachMarked('data-copy-from', HTMLButtonElement, (button, fieldId) => {
  button.addEventListener('click', () => {
    const field = find(fieldId, HTMLTextAreaElement);
    if (field) void copy(field.value.trim(), button);
  });
});
