/**
 * @module credentials/keys/issuer-keys
 * The issuer's ES256 keys: one active key signs, retired keys stay published so
 * credentials they signed keep verifying. Private keys are stored sealed under
 * the key-encryption key and only ever held unsealed in memory. Rotation is an
 * operator action (`xv credentials rotate-key`); a running service notices the new
 * key within `refreshMs`, and at once when it meets an unknown key id.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { base32, type KeyEncryptionKey } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { PublicJwk } from '../sd-jwt/jws.js';
import type { CredentialTables } from '../tables.js';

export interface IssuerKey {
  /** Short key id, the fragment of the DID verification method. */
  kid: string;
  state: 'active' | 'retired';
  publicJwk: PublicJwk;
  publicKey: KeyObject;
  createdAt: number;
}

export interface SigningKey extends IssuerKey {
  privateKey: KeyObject;
}

type Db = Kysely<CredentialTables>;

const newKid = () => `key-${base32(randomBytes(8))}`;

/** Generates a key, stores it sealed and makes it the active one; the previous active key is retired. */
export async function rotateIssuerKey(db: Db, kek: KeyEncryptionKey, now = Date.now()): Promise<string> {
  const kid = newKid();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('issuer_keys')
      .set({ state: 'retired', retired_at: now })
      .where('state', '=', 'active')
      .execute();
    await trx
      .insertInto('issuer_keys')
      .values({
        kid,
        alg: 'ES256',
        public_jwk: JSON.stringify({ kty, crv, x, y }),
        private_key: kek.encrypt(pkcs8, kid),
        state: 'active',
        created_at: now,
        retired_at: null,
      })
      .execute();
  });
  return kid;
}

export class IssuerKeyring {
  private keys = new Map<string, IssuerKey>();
  private signing: SigningKey | undefined;
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly kek: KeyEncryptionKey,
    private readonly refreshMs = 30_000,
  ) {}

  /** Loads the keys, creating the first one on a fresh database. */
  async start(): Promise<void> {
    const any = await this.db
      .selectFrom('issuer_keys')
      .select('kid')
      .where('state', '=', 'active')
      .executeTakeFirst();
    if (!any) await rotateIssuerKey(this.db, this.kek);
    await this.reload();
  }

  /** The key that signs new credentials. */
  async signingKey(): Promise<SigningKey> {
    if (Date.now() - this.loadedAt > this.refreshMs) await this.reload();
    if (!this.signing) throw new Error('The issuer has no active key.');
    return this.signing;
  }

  /** A key (active or retired) by its id, for verification; looks in the database again when it is unknown. */
  async verificationKey(kid: string): Promise<IssuerKey | undefined> {
    const known = this.keys.get(kid);
    if (known) return known;
    // Throttled: a flood of made-up key ids costs at most one query a second.
    if (Date.now() - this.loadedAt > 1000) await this.reload();
    return this.keys.get(kid);
  }

  /** A key already loaded (active or retired), without looking in the database. */
  knownKey(kid: string): IssuerKey | undefined {
    return this.keys.get(kid);
  }

  /** Every published key, active first. */
  async publishedKeys(): Promise<IssuerKey[]> {
    if (Date.now() - this.loadedAt > this.refreshMs) await this.reload();
    return [...this.keys.values()].sort((a, b) =>
      a.state === b.state ? b.createdAt - a.createdAt : a.state === 'active' ? -1 : 1,
    );
  }

  reload(): Promise<void> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load() {
    const rows = await this.db.selectFrom('issuer_keys').selectAll().orderBy('created_at', 'desc').execute();
    const keys = new Map<string, IssuerKey>();
    let signing: SigningKey | undefined;
    for (const row of rows) {
      const publicJwk = JSON.parse(row.public_jwk) as PublicJwk;
      const key: IssuerKey = {
        kid: row.kid,
        state: row.state === 'active' ? 'active' : 'retired',
        publicJwk,
        publicKey: createPublicKey({ key: { ...publicJwk }, format: 'jwk' }),
        createdAt: Number(row.created_at),
      };
      keys.set(row.kid, key);
      // Two instances rotating at once may leave two active keys: the newest signs, both verify.
      if (key.state === 'active' && !signing) {
        let der: Buffer;
        try {
          der = this.kek.decrypt(row.private_key, row.kid);
        } catch {
          throw new Error(
            'The key-encryption key cannot open the stored issuer key: XV_IDENTITY_KEK (or the generated key file) changed.',
          );
        }
        signing = { ...key, privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) };
      }
    }
    this.keys = keys;
    this.signing = signing ?? this.signing;
    this.loadedAt = Date.now();
  }
}
