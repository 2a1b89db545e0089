/**
 * @module keys/kek
 * The trust service's key-encryption key, which seals every organization's signing
 * keys at rest (`KeyEncryptionKey` of the platform: AES-256-GCM, each ciphertext
 * bound to its key id and purpose): `XV_TRUST_KEK`, or on the embedded default a
 * random key generated on first start into `<XV_DATA_DIR>/trust-kek` (mode 0600).
 */
import { join } from 'node:path';
import { KeyEncryptionKey } from '@xv/platform';

export const KEK_FILE = 'trust-kek';

export function loadTrustKek(configured: string | undefined, dataDir: string): KeyEncryptionKey {
  return KeyEncryptionKey.load(configured, join(dataDir, KEK_FILE));
}
