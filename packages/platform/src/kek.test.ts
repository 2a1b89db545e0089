import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyEncryptionKey, keyEncryptionKeySetting } from './kek.js';
import { tempDir } from './testing/index.js';

describe('KeyEncryptionKey', () => {
  const kek = KeyEncryptionKey.fromBytes(randomBytes(32));
  const secret = Buffer.from('the issuer private key');

  it('opens what it sealed, for the same context only', () => {
    const sealed = kek.encrypt(secret, 'key-1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret.toString('base64url'));
    expect(kek.decrypt(sealed, 'key-1')).toEqual(secret);
    expect(() => kek.decrypt(sealed, 'key-2')).toThrow();
    expect(KeyEncryptionKey.isCiphertext(sealed)).toBe(true);
    expect(KeyEncryptionKey.isCiphertext('JBSWY3DPEHPK3PXP')).toBe(false);
  });

  it('refuses a changed byte, another key, and an unknown format', () => {
    const sealed = kek.encrypt(secret, 'key-1');
    const [format, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => kek.decrypt([format, iv, flipped.toString('base64url'), tag].join('.'), 'key-1')).toThrow();
    expect(() => KeyEncryptionKey.fromBytes(randomBytes(32)).decrypt(sealed, 'key-1')).toThrow();
    expect(() => kek.decrypt(`v2.${iv}.${body}.${tag}`, 'key-1')).toThrow(/format/);
  });

  it('is generated once into its file (mode 0600) when none is configured', () => {
    const file = join(tempDir(), 'service.kek');
    const first = KeyEncryptionKey.load(undefined, file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const sealed = first.encrypt(secret, 'c');
    expect(KeyEncryptionKey.load(undefined, file).decrypt(sealed, 'c')).toEqual(secret);
  });

  it('takes a configured key as 64 hex digits, base64 or base64url, all meaning the same bytes', () => {
    const bytes = randomBytes(32);
    const sealed = KeyEncryptionKey.fromBytes(bytes).encrypt(secret, 'c');
    for (const text of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')]) {
      expect(keyEncryptionKeySetting().safeParse(text).success).toBe(true);
      expect(KeyEncryptionKey.load(text, '/nonexistent/never-read').decrypt(sealed, 'c')).toEqual(secret);
    }
  });

  it('rejects a configured key of the wrong size or alphabet', () => {
    for (const text of [
      'c2hvcnQ=',
      randomBytes(31).toString('hex'),
      randomBytes(33).toString('base64'),
      'z'.repeat(64),
    ])
      expect(keyEncryptionKeySetting().safeParse(text).success).toBe(false);
    expect(keyEncryptionKeySetting().safeParse(undefined).success).toBe(true);
  });
});
