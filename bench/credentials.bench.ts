/**
 * SD-JWT credentials: issued/s and verified/s (without and with key binding) of
 * the identity service's issuer and verifier, each against a raw
 * `@sd-jwt/sd-jwt-vc` run (ES256 from `@sd-jwt/crypto-nodejs`) in the same process.
 *
 * Ours does more than the raw run: every issuance takes a status-list slot and is
 * stored (SQLite); every verification checks `typ`, the alg allow-list, the
 * disclosures, the status list, and, with key binding, records the KB-JWT against
 * replay. The raw run issues without a status claim, so it never fetches a list.
 * Both run with CONCURRENCY operations in flight, as a server under load sees
 * them (ours then stores a burst of credentials in one statement).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { KeyEncryptionKey, migrate, openDatabase } from '@xv/platform';
import { CredentialService } from '../services/identity/src/credentials/issuance/issuer.js';
import { IssuerKeyring } from '../services/identity/src/credentials/keys/issuer-keys.js';
import { type PublicJwk, signEs256 } from '../services/identity/src/credentials/sd-jwt/jws.js';
import { sdHashOf, splitSdJwt } from '../services/identity/src/credentials/sd-jwt/sd-jwt.js';
import { StatusLists } from '../services/identity/src/credentials/status/status-list.js';
import type { CredentialTables } from '../services/identity/src/credentials/tables.js';
import { CredentialVerifier } from '../services/identity/src/credentials/verification/verifier.js';
import { migrations } from '../services/identity/src/migrations/index.js';
import { defineBenchmark, round } from './lib/harness.js';

const N = 3000;
const WARM_UP = 200;
const CONCURRENCY = 16;
const BASE = 'http://localhost:4001';
const DID = 'did:web:localhost%3A4001';
const CLAIMS = { email: 'ada@example.com', name: 'Ada Lovelace' };

/** Operations per second with CONCURRENCY operations in flight, as a server under load sees them. */
async function perSecond(count: number, run: (i: number) => Promise<unknown>, offset = 0): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < count) await run(offset + next++);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return count / ((performance.now() - started) / 1000);
}

const warmUp = (run: (i: number) => Promise<unknown>) => perSecond(WARM_UP, run);

function holderKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return {
    privateKey,
    publicJwk: { kty, crv, x, y } as PublicJwk,
    privateJwk: privateKey.export({ format: 'jwk' }),
  };
}

async function ours() {
  const database = await openDatabase<CredentialTables>({
    service: 'identity',
    dataDir: mkdtempSync(join(tmpdir(), 'xv-bench-vc-')),
  });
  await migrate(database, migrations);
  const db = database.kysely;
  const keyring = new IssuerKeyring(db, KeyEncryptionKey.fromBytes(Buffer.alloc(32, 1)));
  await keyring.start();
  const statusLists = new StatusLists(db, keyring, DID, BASE);
  const credentials = new CredentialService(db, keyring, statusLists, {
    did: DID,
    baseUrl: BASE,
    credentialDays: 365,
  });
  const verifier = new CredentialVerifier(db, keyring, statusLists, DID);
  return { database, credentials, verifier };
}

async function raw() {
  const issuer = await ES256.generateKeyPair();
  const holder = await ES256.generateKeyPair();
  const sdjwt = new SDJwtVcInstance({
    signer: await ES256.getSigner(issuer.privateKey),
    signAlg: ES256.alg,
    verifier: await ES256.getVerifier(issuer.publicKey),
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
    kbSigner: await ES256.getSigner(holder.privateKey),
    kbSignAlg: ES256.alg,
    kbVerifier: await ES256.getVerifier(holder.publicKey),
  });
  return { sdjwt, holderPublicJwk: holder.publicKey };
}

export default defineBenchmark({
  name: 'credentials',
  description:
    'SD-JWT VC issued/s and verified/s (without and with key binding), ours vs raw @sd-jwt/sd-jwt-vc',
  async run() {
    const mine = await ours();
    const baseline = await raw();
    const holder = holderKey();
    const now = () => Math.floor(Date.now() / 1000);
    const request = {
      realmId: 'default',
      type: 'IdentityCredential' as const,
      subject: `${DID}:u:usr_bench`,
      userId: 'usr_bench',
      orgId: null,
      claims: CLAIMS,
      issuedBy: 'usr_bench',
      channel: 'api' as const,
    };
    const rawPayload = (cnf?: object) => ({
      iss: DID,
      sub: request.subject,
      vct: `${BASE}/vc/IdentityCredential`,
      iat: now(),
      exp: now() + 3600,
      ...(cnf ? { cnf } : {}),
      ...CLAIMS,
    });
    const frame = { _sd: ['email', 'name'] } as never;

    try {
      const issueOurs = () => mine.credentials.issue(request);
      const issueRaw = () => baseline.sdjwt.issue(rawPayload(), frame);
      await warmUp(issueOurs);
      await warmUp(issueRaw);
      const issuedOurs = await perSecond(N, issueOurs);
      const issuedRaw = await perSecond(N, issueRaw);

      const ourToken = (await mine.credentials.issue(request)).sdjwt;
      const rawToken = await baseline.sdjwt.issue(rawPayload(), frame);
      const verifyOurs = async () => {
        if (!(await mine.verifier.verify(ourToken)).valid) throw new Error('ours did not verify');
      };
      const verifyRaw = () => baseline.sdjwt.verify(rawToken);
      await warmUp(verifyOurs);
      await warmUp(verifyRaw);
      const verifiedOurs = await perSecond(N, verifyOurs);
      const verifiedRaw = await perSecond(N, verifyRaw);

      // Key binding: ours refuses a KB-JWT seen before, so every presentation is fresh (made before timing).
      const bound = (await mine.credentials.issue({ ...request, holderJwk: holder.publicJwk })).sdjwt;
      const { presentation } = splitSdJwt(bound);
      const kbToken = (i: number) =>
        `${presentation}${signEs256({ typ: 'kb+jwt' }, { iat: now(), aud: 'https://rp.example', nonce: `n-${i}`, sd_hash: sdHashOf(presentation) }, holder.privateKey)}`;
      const presentations = Array.from({ length: N + WARM_UP }, (_, i) => kbToken(i));
      const verifyBound = async (i: number) => {
        const result = await mine.verifier.verify(presentations[i]!, { nonce: `n-${i}` });
        if (!result.valid) throw new Error(`ours did not verify with key binding: ${result.reason}`);
      };
      await warmUp(verifyBound);
      const verifiedKbOurs = await perSecond(N, verifyBound, WARM_UP);

      const rawBound = await baseline.sdjwt.issue(rawPayload({ jwk: baseline.holderPublicJwk }), frame);
      const rawPresentation = await baseline.sdjwt.present(rawBound, { email: true, name: true } as never, {
        kb: { payload: { iat: now(), aud: 'https://rp.example', nonce: 'n-raw' } },
      });
      const verifyBoundRaw = () =>
        baseline.sdjwt.verify(rawPresentation, { keyBindingNonce: 'n-raw' } as never);
      await warmUp(verifyBoundRaw);
      const verifiedKbRaw = await perSecond(N, verifyBoundRaw);

      return {
        issuedPerSecond: round(issuedOurs),
        issuedRawPerSecond: round(issuedRaw),
        issuedRatio: round(issuedOurs / issuedRaw),
        verifiedPerSecond: round(verifiedOurs),
        verifiedRawPerSecond: round(verifiedRaw),
        verifiedRatio: round(verifiedOurs / verifiedRaw),
        verifiedKbPerSecond: round(verifiedKbOurs),
        verifiedKbRawPerSecond: round(verifiedKbRaw),
        verifiedKbRatio: round(verifiedKbOurs / verifiedKbRaw),
        operations: N,
        concurrency: CONCURRENCY,
      };
    } finally {
      await mine.database.close();
    }
  },
});
