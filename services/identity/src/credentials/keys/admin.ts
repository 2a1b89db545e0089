/**
 * @module credentials/keys/admin
 * What the operator's `xv credentials` command needs: the key-encryption key as
 * the service finds it, the issuer keys, and rotation.
 */
import { type KeyEncryptionKey, loadSettings } from '@xv/platform';
import type { Kysely } from 'kysely';
import { loadIdentityKek } from '../../kek.js';
import { identitySettings } from '../../settings.js';
import type { CredentialTables } from '../tables.js';
import { IssuerKeyring, rotateIssuerKey } from './issuer-keys.js';

type Env = Record<string, string | undefined>;

/** The key-encryption key from `XV_IDENTITY_KEK`, else the generated file under `dataDir`. */
export function issuerKek(env: Env, dataDir: string): KeyEncryptionKey {
  return loadIdentityKek(loadSettings({ kek: identitySettings.kek }, env).kek, dataDir);
}

export async function listIssuerKeys(db: Kysely<CredentialTables>) {
  return db
    .selectFrom('issuer_keys')
    .select(['kid', 'state', 'created_at', 'retired_at'])
    .orderBy('created_at', 'desc')
    .execute();
}

/** Rotates after checking `kek` opens the current key: a wrong one would seal a key the service cannot open. */
export async function rotateIssuerKeyChecked(
  db: Kysely<CredentialTables>,
  kek: KeyEncryptionKey,
): Promise<string> {
  await new IssuerKeyring(db, kek).reload();
  return rotateIssuerKey(db, kek);
}
