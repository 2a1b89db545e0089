/**
 * SD-JWT VC issue, verify and verify with key binding: the identity service's CPU
 * per answered HTTP request against the CPU the bare `@sd-jwt/sd-jwt-vc` library
 * spends per operation, both measured in this process in the same run.
 *
 * Ours (server CPU per request): identity runs in this process on a real port; the
 * load comes from a child process (autocannon, 16 connections), so only the
 * server's CPU is counted: process.cpuUsage() of this process (every thread) from
 * the load's start to its end ÷ answered requests (after a warm-up run). Each request does everything a client gets:
 * HTTP parsing, routing and body validation, and the JSON answer; and
 * - issue, `POST /api/did/issue` `{type:"IdentityCredential"}` with a session cookie:
 *   the session lookup and authorization, the subject read fresh from the accounts,
 *   a status-list slot, the credential stored (group commit) before it is signed,
 *   two Disclosures packed, ES256 signed;
 * - verify, `POST /api/did/verify` `{token}`, the same credential each time: alg
 *   allow-list, `typ`, issuer key by `kid`, signature (these four once per credential:
 *   the verified issuer JWT is kept by its exact text), time claims, RFC 9901 §7.1
 *   Disclosure rules, status slot;
 * - verify unseen (no goal): the same on credentials the instance has never seen, so
 *   every request parses and checks the issuer signature;
 * - verify with key binding, `{token, nonce, aud}` with a fresh KB-JWT per request: all
 *   of the above plus the holder key (`cnf.jwk`), the KB-JWT's typ/alg/signature/nonce/
 *   aud/iat/sd_hash, and its replay record stored.
 * Every answer must be 200 (and `"valid":true` for verification), else it counts as
 * an error.
 *
 * The library (CPU per operation, cpuSecondsOf over N operations, 16 in flight):
 * `SDJwtVcInstance` with ES256, `digest` and `generateSalt` of `@sd-jwt/crypto-nodejs`,
 * on the same claims (the registered person's email and name, both selectively
 * disclosable; iss, sub, vct, iat, exp in the clear; `cnf.jwk` for key binding):
 * `issue`, `verify`, and `verify` of a presentation with a KB-JWT and its nonce. It
 * carries no status claim (the library would fetch the list over HTTP) and keeps no
 * replay record, so the same presentation verifies every time.
 */
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { identityService } from '@xv/identity';
import { issueOne, newWallet, presentWithKeyBinding, walletCredential } from './lib/credentials-setup.js';
import { cpuSecondsOf, defineBenchmark, round } from './lib/harness.js';
import { signUp } from './lib/identity.js';
import { type LoadOptions, runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

const N = 3000;
/**
 * Key-binding presentations sent before the measured ones: as many as are measured,
 * like every other figure here (the library's included). After only 300, V8 was
 * still optimizing the path in the measured window (its compiler threads alone
 * took about 130 µs per request, and the server about 470 µs against about 280
 * after 3,000).
 */
const WARM_UP = N;
/** Distinct credentials verified once each (the first-time path), after as many to warm it up: it settles slowly. */
const UNSEEN = 1000;
const CONNECTIONS = 16;
const CONCURRENCY = 16;
const AUDIENCE = 'https://verifier.example';

/** CPU µs this process spends per operation over `count` operations, CONCURRENCY in flight. */
async function libraryMicrosPerOp(count: number, run: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < count) await run(next++);
  };
  const all = () => Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await all(); // warm-up round, same size
  next = 0;
  return ((await cpuSecondsOf(all)) * 1e6) / count;
}

/**
 * What a measurement sends: one body `count` times over every connection, after as
 * many to warm up (after only 300 the issue path is still settling: about 600 µs
 * per request against about 350 after 3,000), or each body once after the first `warmUp`.
 */
type Requests = { body: string; count: number } | { bodies: string[]; warmUp: number };

/** Server CPU µs per answered request, with the load's requests/s and its errors. */
async function serverMicrosPerRequest(
  url: string,
  requests: Requests,
  options: { headers?: Record<string, string>; expect?: string } = {},
) {
  const post: LoadOptions = {
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    connections: CONNECTIONS,
    expect: options.expect,
  };
  const [warmUp, measured]: Partial<LoadOptions>[] =
    'body' in requests
      ? [
          { body: requests.body, amount: requests.count },
          { body: requests.body, amount: requests.count },
        ]
      : [
          { bodies: requests.bodies.slice(0, requests.warmUp), once: true },
          { bodies: requests.bodies.slice(requests.warmUp), once: true },
        ];
  await runLoad({ ...post, ...warmUp });
  const load = await runLoad({ ...post, ...measured });
  return {
    micros: (load.cpuSeconds * 1e6) / Math.max(1, load.answered),
    requestsPerSecond: load.requestsPerSecond,
    errors: load.errors + load.non2xx + load.unexpected,
  };
}

export default defineBenchmark({
  name: 'credentials',
  description:
    'SD-JWT VC issue, verify, verify with key binding: server CPU per HTTP request vs bare @sd-jwt/sd-jwt-vc CPU per op',
  goals: [
    { figure: 'issueCpuRatio', atMost: 0.67, says: 'POST /api/did/issue vs library issue' },
    { figure: 'verifyCpuRatio', atMost: 0.67, says: 'POST /api/did/verify vs library verify' },
    { figure: 'verifyKbCpuRatio', atMost: 0.67, says: 'verify with key binding vs library' },
  ],
  baselines: ['libraryIssueMicrosPerOp', 'libraryVerifyMicrosPerOp', 'libraryVerifyKbMicrosPerOp'],
  async run() {
    const service = await serveForBench(identityService);
    try {
      const { url } = service;
      const person = await signUp(url);
      const cookie = person.cookie;

      // Ours, over HTTP.
      const issue = await serverMicrosPerRequest(
        `${url}/api/did/issue`,
        { body: JSON.stringify({ type: 'IdentityCredential' }), count: N },
        { headers: { cookie } },
      );
      const token = await issueOne(url, cookie);
      // Credentials this instance has never seen: each verification parses and checks the signature.
      const unseen: string[] = [];
      let claimed = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (claimed++ < 2 * UNSEEN) unseen.push(JSON.stringify({ token: await issueOne(url, cookie) }));
        }),
      );
      const verifyUnseen = await serverMicrosPerRequest(
        `${url}/api/did/verify`,
        { bodies: unseen, warmUp: UNSEEN },
        { expect: '"valid":true' },
      );
      const verify = await serverMicrosPerRequest(
        `${url}/api/did/verify`,
        { body: JSON.stringify({ token }), count: N },
        { expect: '"valid":true' },
      );
      const wallet = newWallet();
      const bound = await walletCredential(url, cookie, wallet);
      const presentations = Array.from({ length: WARM_UP + N }, (_, i) => {
        const nonce = `n-${i}`;
        return JSON.stringify({
          token: presentWithKeyBinding(bound, wallet, nonce, AUDIENCE),
          nonce,
          aud: AUDIENCE,
        });
      });
      const verifyKb = await serverMicrosPerRequest(
        `${url}/api/did/verify`,
        { bodies: presentations, warmUp: WARM_UP },
        { expect: '"valid":true' },
      );

      // The bare library, same claims and Disclosures.
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
      const now = Math.floor(Date.now() / 1000);
      const ours = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<
        string,
        unknown
      >;
      const payload = (cnf?: object) => ({
        iss: ours.iss as string,
        sub: ours.sub as string,
        vct: ours.vct as string,
        iat: now,
        exp: now + 365 * 86_400,
        ...(cnf ? { cnf } : {}),
        email: person.email,
        name: person.name,
      });
      const frame = { _sd: ['email', 'name'] } as never;
      const libraryIssue = await libraryMicrosPerOp(N, () => sdjwt.issue(payload(), frame));
      const plain = await sdjwt.issue(payload(), frame);
      const libraryVerify = await libraryMicrosPerOp(N, () => sdjwt.verify(plain));
      const boundRaw = await sdjwt.issue(payload({ jwk: holder.publicKey }), frame);
      const presented = await sdjwt.present(boundRaw, { email: true, name: true } as never, {
        kb: { payload: { iat: now, aud: AUDIENCE, nonce: 'n-library' } },
      });
      const libraryVerifyKb = await libraryMicrosPerOp(N, () =>
        sdjwt.verify(presented, { keyBindingNonce: 'n-library' } as never),
      );

      return {
        issueCpuRatio: round(issue.micros / libraryIssue),
        verifyCpuRatio: round(verify.micros / libraryVerify),
        verifyKbCpuRatio: round(verifyKb.micros / libraryVerifyKb),
        issueServerMicrosPerRequest: round(issue.micros),
        libraryIssueMicrosPerOp: round(libraryIssue),
        verifyServerMicrosPerRequest: round(verify.micros),
        libraryVerifyMicrosPerOp: round(libraryVerify),
        verifyUnseenCpuRatio: round(verifyUnseen.micros / libraryVerify),
        verifyUnseenServerMicrosPerRequest: round(verifyUnseen.micros),
        verifyKbServerMicrosPerRequest: round(verifyKb.micros),
        libraryVerifyKbMicrosPerOp: round(libraryVerifyKb),
        issueRequestsPerSecond: round(issue.requestsPerSecond),
        verifyRequestsPerSecond: round(verify.requestsPerSecond),
        verifyKbRequestsPerSecond: round(verifyKb.requestsPerSecond),
        requestsPerRun: N,
        connections: CONNECTIONS,
        errors: issue.errors + verify.errors + verifyUnseen.errors + verifyKb.errors,
      };
    } finally {
      await service.close();
    }
  },
});
