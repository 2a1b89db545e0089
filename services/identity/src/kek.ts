/**
 * @module kek
 * The identity service's key-encryption key: it seals the credential issuer's
 * private keys and every TOTP secret. It comes from `XV_IDENTITY_KEK`; on the
 * embedded default it is generated on first start into
 * `<XV_DATA_DIR>/identity-issuer.kek` (the name predates TOTP sealing). Instances
 * sharing one PostgreSQL database must share `XV_IDENTITY_KEK`.
 */
import { join } from 'node:path';
import { KeyEncryptionKey } from '@xv/platform';

export const KEK_FILE = 'identity-issuer.kek';

export function loadIdentityKek(configured: string | undefined, dataDir: string): KeyEncryptionKey {
  return KeyEncryptionKey.load(configured, join(dataDir, KEK_FILE));
}
