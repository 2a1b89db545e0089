/**
 * @module credentials/keys/kek
 * The key-encryption key that seals issuer private keys at rest (AES-256-GCM).
 * It comes from `XV_IDENTITY_KEK`; on the embedded default it is generated on
 * first start into `<XV_DATA_DIR>/identity-issuer.kek` with mode 0600. Several
 * instances sharing one PostgreSQL database must share `XV_IDENTITY_KEK`.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const KEK_FILE = 'identity-issuer.kek';

export function loadOrCreateKek(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  const file = resolve(join(dataDir, KEK_FILE));
  mkdirSync(resolve(dataDir), { recursive: true });
  try {
    // `wx`: two processes starting together cannot both write one.
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key.`);
  return key;
}

const VERSION = 'v1';

/** Seals `plaintext`; `context` (e.g. the key id) is bound as associated data, so a sealed key cannot be swapped. */
export function seal(kek: Buffer, plaintext: Buffer, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function unseal(kek: Buffer, sealed: string, context: string): Buffer {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !body || !tag) throw new Error('Unknown sealed key format.');
  const decipher = createDecipheriv('aes-256-gcm', kek, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
}
