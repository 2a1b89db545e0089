import { createPrivateKey } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '@xv/platform';
import { describeEachDatabase, startService, tempDir } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { rotateIssuerKey } from '../src/credentials/keys/issuer-keys.js';
import { parseJws, signEs256 } from '../src/credentials/sd-jwt/jws.js';
import { splitSdJwt } from '../src/credentials/sd-jwt/sd-jwt.js';
import type { CredentialTables } from '../src/credentials/tables.js';
import { KEK_FILE } from '../src/kek.js';
import { identityService } from '../src/service.js';
import { type SignedIn, signUp } from '../src/testing/index.js';
import { decodeHeader, issue, startCredentialIdentity, TEST_KEK, verify } from './credentials-helpers.js';
import { email } from './helpers.js';

describeEachDatabase('issuer keys', (target) => {
  let database: Database<CredentialTables>;
  let person: SignedIn;

  beforeAll(async () => {
    database = await target.open<CredentialTables>('identity');
  });

  it('seals the private key at rest and rotates, keeping the old key for verification', async () => {
    const first = await startCredentialIdentity(database);
    person = await signUp(first.url, {
      email: email('keys'),
      password: 'secret1',
      name: 'Kim',
      orgName: 'Keys',
    });
    const db = database.kysely;
    const [row] = await db.selectFrom('issuer_keys').selectAll().execute();
    expect(row!.private_key).toMatch(/^v1\./);
    expect(row!.private_key).not.toContain('"d"');
    expect(JSON.parse(row!.public_jwk)).not.toHaveProperty('d');
    await first.close();

    const kid = await rotateIssuerKey(db, TEST_KEK);
    const second = await startCredentialIdentity(database);
    const fresh = (await issue(second, person.cookie, { type: 'IdentityCredential' })).body.sdjwt;
    expect(decodeHeader(fresh).kid).toMatch(new RegExp(`#${kid}$`));
    expect((await verify(second, { token: fresh })).body.valid).toBe(true);

    // A credential signed by the retired key still verifies.
    const retired = await db
      .selectFrom('issuer_keys')
      .selectAll()
      .where('state', '=', 'retired')
      .executeTakeFirstOrThrow();
    const retiredKey = createPrivateKey({
      key: TEST_KEK.decrypt(retired.private_key, retired.kid),
      format: 'der',
      type: 'pkcs8',
    });
    const parts = splitSdJwt(fresh);
    const jws = parseJws(parts.jwt)!;
    const kidOf = (k: string) => `${String(jws.header.kid).split('#')[0]}#${k}`;
    const old = `${signEs256({ ...jws.header, kid: kidOf(retired.kid) }, jws.payload, retiredKey)}~${parts.disclosures.join('~')}~`;
    expect((await verify(second, { token: old })).body.valid).toBe(true);

    const document = await (await second.fetch('/.well-known/did.json')).json();
    expect(document.verificationMethod.map((m: { id: string }) => m.id)).toEqual([
      kidOf(kid),
      kidOf(retired.kid),
    ]);
    await second.close();
  });

  it('refuses to start with another key-encryption key than the one that sealed the keys', async () => {
    await expect(
      startCredentialIdentity(database, { XV_IDENTITY_KEK: Buffer.alloc(32, 9).toString('base64') }),
    ).rejects.toThrow(/key-encryption key/);
  });

  it('refuses a key-encryption key that is not 32 bytes, naming the variable and not the value', async () => {
    const promise = startCredentialIdentity(database, { XV_IDENTITY_KEK: 'c2hvcnQ=' });
    await expect(promise).rejects.toThrow(/XV_IDENTITY_KEK/);
    await expect(promise).rejects.not.toThrow(/c2hvcnQ/);
  });
});

describeEachDatabase('the generated key-encryption key', (target) => {
  it('is written on first start under XV_DATA_DIR with mode 0600, and reused', async () => {
    const dataDir = tempDir();
    const database = await target.open('identity');
    const svc = await startService(identityService, { database, env: { XV_DATA_DIR: dataDir } });
    const file = join(dataDir, KEK_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await svc.close();
    const again = await startService(identityService, { database, env: { XV_DATA_DIR: dataDir } });
    expect((await again.fetch('/.well-known/did.json')).status).toBe(200);
  });
});
