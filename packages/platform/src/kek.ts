/**
 * @module kek
 * Secrets a service must read back (issuer private keys, TOTP secrets) are stored
 * encrypted with AES-256-GCM under a key-encryption key (KEK). The KEK comes from a
 * setting, or on the embedded default is generated on first start into a file under
 * the data folder (mode 0600). The associated data binds each ciphertext to what it
 * belongs to (a key id, a user), so a ciphertext copied to another row does not open.
 *
 * Stored form: `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { readOrCreateSecretFile } from './secret-file.js';

const FORMAT = 'v1';
const KEY_BYTES = 32;

/** The key's bytes from 64 hex digits, or from base64 or base64url (Node decodes both alphabets). */
function decodeKey(text: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64url');
}

/** A KEK setting: 32 bytes as 64 hex digits, base64 or base64url (`openssl rand -hex 32`). */
export const keyEncryptionKeySetting = () =>
  z
    .string()
    .trim()
    .refine(
      (text) =>
        /^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/.test(text) && decodeKey(text).length === KEY_BYTES,
      'must be 32 bytes as 64 hex digits, base64 or base64url (e.g. `openssl rand -hex 32`)',
    )
    .optional();

export class KeyEncryptionKey {
  private constructor(private readonly key: Buffer) {}

  /** The configured key, else the one generated into `file` on first use. */
  static load(configured: string | undefined, file: string): KeyEncryptionKey {
    const text =
      configured ?? readOrCreateSecretFile(file, () => randomBytes(KEY_BYTES).toString('base64url'));
    const key = decodeKey(text.trim());
    if (key.length !== KEY_BYTES) throw new Error(`The key-encryption key in ${file} must be 32 bytes.`);
    return new KeyEncryptionKey(key);
  }

  static fromBytes(key: Uint8Array): KeyEncryptionKey {
    if (key.length !== KEY_BYTES) throw new Error('The key-encryption key must be 32 bytes.');
    return new KeyEncryptionKey(Buffer.from(key));
  }

  encrypt(plaintext: Uint8Array, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return [FORMAT, ...[iv, sealed, cipher.getAuthTag()].map((b) => b.toString('base64url'))].join('.');
  }

  /** Opens what `encrypt` made for the same `context`; throws when the key, context or bytes differ. */
  decrypt(stored: string, context: string): Buffer {
    const [format, iv, sealed, tag] = stored.split('.');
    if (format !== FORMAT || !iv || sealed === undefined || !tag)
      throw new Error('Unknown ciphertext format.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]);
  }

  /** Whether `stored` has this module's ciphertext form (and so is not a legacy plaintext value). */
  static isCiphertext(stored: string): boolean {
    return stored.startsWith(`${FORMAT}.`);
  }
}
