/**
 * @module client/content
 * A receipt's page: the original content, pasted or dropped, is hashed here with
 * WebCrypto and compared with the sealed hashes the page carries
 * (`#content-drop[data-output-hash]`, `[data-input-hash]`). Nothing is sent.
 */
import { localeOfTag, translator } from '@xv/platform/i18n';
import { messages } from '../messages/index.js';
import { type ContentMatch, matchContent, type SealedHashes } from './lib/content-hash.js';
import { onFile } from './lib/file-drop.js';

const t = translator(messages, localeOfTag(document.documentElement.lang) ?? 'en');

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
  if (!result.matches) return t('content.noMatch', { what, hash: result.hash });
  const form = result.form === 'json' ? '.json' : '';
  return t(`content.match.${result.matches}${form}`, { what });
}

async function check(bytes: Uint8Array<ArrayBuffer>, what: string) {
  out.className = 'verdict neutral';
  out.textContent = t('content.checking');
  try {
    const result = await matchContent(bytes, sealed);
    const verdict = document.createElement('p');
    verdict.dataset.match = result.matches ? 'yes' : 'no';
    verdict.textContent = words(result, what);
    out.className = `verdict ${result.matches ? 'valid' : 'invalid'}`;
    out.replaceChildren(verdict);
  } catch (error) {
    out.className = 'verdict invalid';
    out.textContent = t('content.failed', { error: error instanceof Error ? error.message : String(error) });
  }
}

const checkFile = async (file: File) =>
  check(new Uint8Array(await file.arrayBuffer()), t('content.namedFile', { name: file.name }));

button.addEventListener('click', () => void check(new TextEncoder().encode(text.value), t('content.pasted')));
onFile(input, drop, (file) => void checkFile(file));
