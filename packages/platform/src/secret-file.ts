/**
 * @module secret-file
 * Secrets the embedded default generates on first start (a key-encryption key, a
 * service credential shared by two local services): one file each under the data
 * folder, readable by the owner only (0600). Creation is atomic, so two processes
 * starting together agree on one value and never read a half-written file.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The secret stored in `path`, created with `generate()` (mode 0600) when the file does not exist yet. */
export function readOrCreateSecretFile(path: string, generate: () => string): string {
  const file = resolve(path);
  try {
    return readSecret(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Written in full beside the target, then linked into place: link fails if another
  // process won the race, and readers never see a partial file.
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(draft, `${generate()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  chmodSync(file, 0o600);
  return readSecret(file);
}

function readSecret(file: string): string {
  const value = readFileSync(file, 'utf8').trim();
  if (!value) throw new Error(`The secret file ${file} is empty.`);
  return value;
}
