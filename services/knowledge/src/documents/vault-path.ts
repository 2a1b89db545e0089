/**
 * @module documents/vault-path
 * A document's path in the vault: relative, forward slashes, no `.` or `..`
 * segments, no control characters. Two spellings of one file map to one path.
 */

const MAX_PATH = 512;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The normalised path, or undefined when it is not an acceptable vault path. */
export function normalizeVaultPath(raw: string): string | undefined {
  const path = raw.normalize('NFC').replace(/\\/g, '/').replace(/^\.\//, '');
  if (!path || path.length > MAX_PATH || CONTROL.test(path) || path.startsWith('/')) return undefined;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.trim() !== s)) return undefined;
  if (/^[a-zA-Z]:$/.test(segments[0]!)) return undefined; // C:/…
  return path;
}

/** The file name without folders or the `.md` extension: the title of last resort. */
export function titleFromPath(path: string): string {
  const name = path.split('/').pop() ?? path;
  return name.replace(/\.(md|markdown)$/i, '');
}
