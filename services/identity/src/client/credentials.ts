/**
 * @module client/credentials
 * The credential page's copy buttons: `data-copy` holds the text to copy,
 * `data-copy-from` names the field whose value to copy (the SD-JWT). The result
 * shows in the page's status line.
 */
import { find, forEachMarked } from './lib/dom.js';

const status = find('copy-status', HTMLElement);

async function copy(text: string, label: string) {
  try {
    await navigator.clipboard.writeText(text);
    if (status) status.textContent = `Copied ${label.replace(/^Copy /, '')}.`;
  } catch {
    if (status) status.textContent = 'Copying is not allowed here: select the text and copy it yourself.';
  }
}

forEachMarked('data-copy', HTMLButtonElement, (button, value) => {
  button.addEventListener('click', () => void copy(value, button.getAttribute('aria-label') ?? 'value'));
});

forEachMarked('data-copy-from', HTMLButtonElement, (button, fieldId) => {
  button.addEventListener('click', () => {
    const field = find(fieldId, HTMLTextAreaElement);
    if (field) void copy(field.value.trim(), button.getAttribute('aria-label') ?? 'value');
  });
});
