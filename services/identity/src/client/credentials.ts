/**
 * @module client/credentials
 * The credential page's copy buttons: `data-copy` holds the text to copy,
 * `data-copy-from` names the field whose value to copy (the SD-JWT). The result
 * shows in the page's status line, in the page's language.
 */
import { find, forEachMarked } from './lib/dom.js';
import { t } from './lib/i18n.js';

const status = find('copy-status', HTMLElement);

async function copy(text: string, done: string) {
  try {
    await navigator.clipboard.writeText(text);
    if (status) status.textContent = done;
  } catch {
    if (status) status.textContent = t('credential.copyRefused');
  }
}

forEachMarked('data-copy', HTMLButtonElement, (button, value) => {
  // A claim's button sits in the claim's row, whose heading names it.
  const name = button.closest('tr')?.querySelector('th code')?.textContent ?? '';
  button.addEventListener('click', () => void copy(value, t('credential.copied', { name })));
});

forEachMarked('data-copy-from', HTMLButtonElement, (button, fieldId) => {
  button.addEventListener('click', () => {
    const field = find(fieldId, HTMLTextAreaElement);
    if (field) void copy(field.value.trim(), t('credential.copiedSdjwt'));
  });
});
