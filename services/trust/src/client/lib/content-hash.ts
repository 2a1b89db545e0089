/**
 * @module client/lib/content-hash
 * Does a piece of content match what a receipt sealed? The sealed hash is
 * `sha256-<hex>` of the content's exact bytes (a string's UTF-8); content sealed as
 * JSON was hashed in its RFC 8785 form, so JSON that does not match byte for byte is
 * tried once more in that form. Runs in the browser (WebCrypto) and in Node.
 */
import { canonicalize, hex } from './encoding.js';

export interface SealedHashes {
  output: string;
  input?: string;
}

export interface ContentMatch {
  /** Which sealed hash the content matches, or null when it matches none. */
  matches: 'output' | 'input' | null;
  /** `bytes`: the exact bytes; `json`: the RFC 8785 form of the JSON it holds. */
  form: 'bytes' | 'json';
  /** The SHA-256 of the exact bytes, `sha256-<hex>`. */
  hash: string;
}

async function taggedSha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return `sha256-${hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))}`;
}

function which(hash: string, sealed: SealedHashes): ContentMatch['matches'] {
  if (hash === sealed.output) return 'output';
  if (sealed.input && hash === sealed.input) return 'input';
  return null;
}

export async function matchContent(
  bytes: Uint8Array<ArrayBuffer>,
  sealed: SealedHashes,
): Promise<ContentMatch> {
  const hash = await taggedSha256(bytes);
  const exact = which(hash, sealed);
  if (exact) return { matches: exact, form: 'bytes', hash };
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { matches: null, form: 'bytes', hash };
  }
  // A JSON string was sealed as its own UTF-8, which the exact bytes already answered.
  if (typeof parsed === 'string') return { matches: null, form: 'bytes', hash };
  const canonical = which(await taggedSha256(new TextEncoder().encode(canonicalize(parsed))), sealed);
  return canonical ? { matches: canonical, form: 'json', hash } : { matches: null, form: 'bytes', hash };
}
