/**
 * @module keys/kek
 * Issuer private keys are stored encrypted with AES-256-GCM under a key-encryption
 * key (KEK): `XV_TRUST_KEK`, or on the embedded default a random one generated on
 * first start into `<XV_DATA_DIR>/trust-kek` (mode 0600). The associated data binds
 * each ciphertext to its key id and purpose, so a ciphertext moved to another row
 * does not decrypt.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readOrCreateSecretFile } from '@xv/platform';

export const KEK_FILE = 'trust-kek';
const FORMAT = 'v1';

export class KeyEncryptionKey {
  private constructor(private readonly key: Buffer) {}

  /** The configured KEK (64 hex digits or base64url), else the generated one in the data folder. */
  static load(configured: string | undefined, dataDir: string): KeyEncryptionKey {
    const text =
      configured ??
      readOrCreateSecretFile(join(dataDir, KEK_FILE), () => randomBytes(32).toString('base64url'));
    const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64url');
    if (key.length !== 32) throw new Error('The key-encryption key must be 32 bytes.');
    return new KeyEncryptionKey(key);
  }

  encrypt(plaintext: Uint8Array, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const parts = [iv, sealed, cipher.getAuthTag()].map((b) => b.toString('base64url'));
    return [FORMAT, ...parts].join('.');
  }

  decrypt(stored: string, context: string): Buffer {
    const [format, iv, sealed, tag] = stored.split('.');
    if (format !== FORMAT || !iv || sealed === undefined || !tag)
      throw new Error('Unknown key ciphertext format.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]);
  }
}
