/**
 * @module client/content
 * A receipt's page: the original content, pasted or dropped, is hashed here with
 * WebCrypto and compared with the sealed hashes the page carries
 * (`#content-drop[data-output-hash]`, `[data-input-hash]`). Nothing is sent.
 */
import { type ContentMatch, matchContent, type SealedHashes } from './lib/content-hash.js';
import { onFile } from './lib/file-drop.js';

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`The page has no #${id}.`);
  return found;
}

const drop = element('content-drop', HTMLElement);
const text = element('content-text', HTMLTextAreaElement);
const button = element('content-check', HTMLButtonElement);
const input = element('content-file', HTMLInputElement);
const out = element('content-result', HTMLElement);
const sealed: SealedHashes = {
  output: drop.dataset.outputHash ?? '',
  ...(drop.dataset.inputHash ? { input: drop.dataset.inputHash } : {}),
};

function words(result: ContentMatch, what: string): string {
  if (!result.matches) return `✘ ${what} does not match the sealed content: its SHA-256 is ${result.hash}.`;
  const part = result.matches === 'output' ? 'sealed content' : 'sealed content (the input)';
  const form = result.form === 'json' ? ' (as JSON, in its canonical RFC 8785 form)' : '';
  return `✔ ${what} matches the ${part}${form}: it is exactly what was sealed.`;
}

async function check(bytes: Uint8Array<ArrayBuffer>, what: string) {
  out.className = 'verdict neutral';
  out.textContent = 'Checking…';
  try {
    const result = await matchContent(bytes, sealed);
    const verdict = document.createElement('p');
    verdict.dataset.match = result.matches ? 'yes' : 'no';
    verdict.textContent = words(result, what);
    out.className = `verdict ${result.matches ? 'valid' : 'invalid'}`;
    out.replaceChildren(verdict);
  } catch (error) {
    out.className = 'verdict invalid';
    out.textContent = `✘ The content could not be checked: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const checkFile = async (file: File) =>
  check(new Uint8Array(await file.arrayBuffer()), `The file ${file.name}`);

button.addEventListener('click', () => void check(new TextEncoder().encode(text.value), 'The pasted text'));
onFile(input, drop, (file) => void checkFile(file));
