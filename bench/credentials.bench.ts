/**
 * SD-JWT VC issue, verify and verify with key binding: the identity service's CPU
 * per answered HTTP request against the CPU the bare `@sd-jwt/sd-jwt-vc` library
 * spends per operation, both measured in this process in the same run.
 *
 * Ours (server CPU per request): identity runs in this process on a real port; the
 * load comes from a child process (autocannon, 16 connections), so only the
 * server's CPU is counted: process.cpuUsage() of this process (every thread) from
 * the load's start to its end ÷ answered requests. Each request does everything a
 * client gets: HTTP parsing, routing and body validation, and the JSON answer; and
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
 * The floor (no goal; same load, same measure): the same SD-JWT built and signed by
 * identity's own code (`packDisclosures`, `signEs256` with a key object) on a bare
 * `node:http` server in this process, with no framework, session, database, status
 * list or middleware: the cheapest an issue over HTTP can be here. `issueFloorCpuRatio`
 * is that against the library's issue; when it is near or above the goal's 0.67, the
 * issue goal asks for less CPU than the HTTP request and the signature cost alone.
 *
 * The library (CPU per operation, cpuSecondsOf over N operations, 16 in flight):
 * `SDJwtVcInstance` with ES256, `digest` and `generateSalt` of `@sd-jwt/crypto-nodejs`,
 * on the same claims (the registered person's email and name, both selectively
 * disclosable; iss, sub, vct, iat, exp in the clear; `cnf.jwk` for key binding):
 * `issue`, `verify`, and `verify` of a presentation with a KB-JWT and its nonce. It
 * carries no status claim (the library would fetch the list over HTTP) and keeps no
 * replay record, so the same presentation verifies every time.
 *
 * After a warm-up of every load and operation (as many as a round measures), three
 * rounds: in each, ours then the library's same operation (and the floor after the
 * issue), so a drift of the machine's speed moves both sides of a ratio; each figure
 * is the median of its rounds.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { identityService } from '@xv/identity';
import { signEs256 } from '../services/identity/src/credentials/sd-jwt/jws.js';
import { packDisclosures } from '../services/identity/src/credentials/sd-jwt/sd-jwt.js';
import { issueOne, newWallet, presentWithKeyBinding, walletCredential } from './lib/credentials-setup.js';
import { cpuSecondsOf, defineBenchmark, round } from './lib/harness.js';
import { signUp } from './lib/identity.js';
import { runLoad } from './lib/load.js';
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
/** Rounds of ours and the library's, alternating; each figure is the median of its rounds. */
const ROUNDS = 3;
const CONCURRENCY = 16;
const AUDIENCE = 'https://verifier.example';

/** CPU µs this process spends per operation over `count` operations, CONCURRENCY in flight. */
async function libraryMicrosPerOp(count: number, run: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < count) await run(next++);
  };
  return ((await cpuSecondsOf(() => Promise.all(Array.from({ length: CONCURRENCY }, worker)))) * 1e6) / count;
}

/** What a load sends: one body `count` times over every connection, or each of `bodies` once. */
type Requests = { body: string; count: number } | { bodies: string[] };

/** Server CPU µs per answered request, with the load's requests/s and its errors. */
async function serverMicrosPerRequest(
  url: string,
  requests: Requests,
  options: { headers?: Record<string, string>; expect?: string } = {},
) {
  const load = await runLoad({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    connections: CONNECTIONS,
    expect: options.expect,
    ...('body' in requests
      ? { body: requests.body, amount: requests.count }
      : { bodies: requests.bodies, once: true }),
  });
  return {
    micros: (load.cpuSeconds * 1e6) / Math.max(1, load.answered),
    requestsPerSecond: load.requestsPerSecond,
    errors: load.errors + load.non2xx + load.unexpected,
  };
}

type Measured = Awaited<ReturnType<typeof serverMicrosPerRequest>>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * A bare `node:http` server that answers every POST with an SD-JWT like identity's
 * IdentityCredential (two Disclosures, the same header and registered claims),
 * built and signed by identity's own code: the issue path without anything else.
 */
async function bareIssuer(claims: { iss: string; sub: string; vct: string; email: string; name: string }) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { type } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string };
      const iat = Math.floor(Date.now() / 1000);
      const { payload, disclosures } = packDisclosures({ email: claims.email, name: claims.name }, [
        'email',
        'name',
      ]);
      const jwt = signEs256(
        { typ: 'dc+sd-jwt', kid: `${claims.iss}#key-1` },
        {
          ...payload,
          iss: claims.iss,
          sub: claims.sub,
          vct: claims.vct,
          iat,
          exp: iat + 365 * 86_400,
          status: { status_list: { idx: 1, uri: `${claims.iss}/status/1` } },
        },
        privateKey,
      );
      const body = JSON.stringify({
        ok: true,
        type,
        sdjwt: `${jwt}~${disclosures.map((d) => `${d}~`).join('')}`,
      });
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
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

      const token = await issueOne(url, cookie);
      const ours = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<
        string,
        unknown
      >;
      // Credentials this instance has never seen: each verification parses and checks the signature.
      const unseen: string[] = [];
      let claimed = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (claimed++ < 2 * UNSEEN) unseen.push(JSON.stringify({ token: await issueOne(url, cookie) }));
        }),
      );
      const wallet = newWallet();
      const bound = await walletCredential(url, cookie, wallet);
      const presentations = Array.from({ length: WARM_UP + ROUNDS * N }, (_, i) => {
        const nonce = `n-${i}`;
        return JSON.stringify({
          token: presentWithKeyBinding(bound, wallet, nonce, AUDIENCE),
          nonce,
          aud: AUDIENCE,
        });
      });

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
      const plain = await sdjwt.issue(payload(), frame);
      const boundRaw = await sdjwt.issue(payload({ jwk: holder.publicKey }), frame);
      const presented = await sdjwt.present(boundRaw, { email: true, name: true } as never, {
        kb: { payload: { iat: now, aud: AUDIENCE, nonce: 'n-library' } },
      });
      const bare = await bareIssuer({
        iss: ours.iss as string,
        sub: ours.sub as string,
        vct: ours.vct as string,
        email: person.email,
        name: person.name,
      });

      // What each figure measures: ours over HTTP, the floor, and the library's operation.
      const issueBody = { body: JSON.stringify({ type: 'IdentityCredential' }), count: N };
      const verifyBody = { body: JSON.stringify({ token }), count: N };
      const valid = { expect: '"valid":true' };
      let nextPresentation = WARM_UP;
      const loads = {
        issue: () => serverMicrosPerRequest(`${url}/api/did/issue`, issueBody, { headers: { cookie } }),
        floor: () => serverMicrosPerRequest(`${bare.url}/api/did/issue`, issueBody, { headers: { cookie } }),
        verify: () => serverMicrosPerRequest(`${url}/api/did/verify`, verifyBody, valid),
        verifyKb: () => {
          const bodies = presentations.slice(nextPresentation, nextPresentation + N);
          nextPresentation += N;
          return serverMicrosPerRequest(`${url}/api/did/verify`, { bodies }, valid);
        },
      };
      const library = {
        issue: () => libraryMicrosPerOp(N, () => sdjwt.issue(payload(), frame)),
        verify: () => libraryMicrosPerOp(N, () => sdjwt.verify(plain)),
        verifyKb: () =>
          libraryMicrosPerOp(N, () => sdjwt.verify(presented, { keyBindingNonce: 'n-library' } as never)),
      };

      // Warm-up, as many as each round measures (V8 keeps optimizing these paths for thousands of calls).
      await loads.issue();
      await loads.floor();
      await loads.verify();
      await serverMicrosPerRequest(
        `${url}/api/did/verify`,
        { bodies: presentations.slice(0, WARM_UP) },
        valid,
      );
      for (const op of Object.values(library)) await op();
      await serverMicrosPerRequest(`${url}/api/did/verify`, { bodies: unseen.slice(0, UNSEEN) }, valid);
      const verifyUnseen = await serverMicrosPerRequest(
        `${url}/api/did/verify`,
        { bodies: unseen.slice(UNSEEN) },
        valid,
      );

      // Rounds: each of ours right before the library's same operation, so the machine's drifting speed
      // moves both sides of a ratio; each figure is the median of its rounds.
      const rounds: Record<'issue' | 'floor' | 'verify' | 'verifyKb', Measured[]> = {
        issue: [],
        floor: [],
        verify: [],
        verifyKb: [],
      };
      const libraryRounds: Record<'issue' | 'verify' | 'verifyKb', number[]> = {
        issue: [],
        verify: [],
        verifyKb: [],
      };
      const ratios: Record<'issue' | 'floor' | 'verify' | 'verifyKb', number[]> = {
        issue: [],
        floor: [],
        verify: [],
        verifyKb: [],
      };
      for (let r = 0; r < ROUNDS; r++) {
        for (const op of ['issue', 'verify', 'verifyKb'] as const) {
          const measured = await loads[op]();
          const floor = op === 'issue' ? await loads.floor() : undefined;
          const libraryMicros = await library[op]();
          rounds[op].push(measured);
          libraryRounds[op].push(libraryMicros);
          ratios[op].push(measured.micros / libraryMicros);
          if (floor) {
            rounds.floor.push(floor);
            ratios.floor.push(floor.micros / libraryMicros);
          }
        }
      }
      await bare.close();
      const micros = (op: keyof typeof rounds) => median(rounds[op].map((m) => m.micros));
      const rate = (op: keyof typeof rounds) => median(rounds[op].map((m) => m.requestsPerSecond));
      const errors = [...Object.values(rounds).flat(), verifyUnseen].reduce((sum, m) => sum + m.errors, 0);
      const libraryVerify = median(libraryRounds.verify);

      return {
        issueCpuRatio: round(median(ratios.issue)),
        verifyCpuRatio: round(median(ratios.verify)),
        verifyKbCpuRatio: round(median(ratios.verifyKb)),
        issueServerMicrosPerRequest: round(micros('issue')),
        issueFloorCpuRatio: round(median(ratios.floor)),
        issueFloorMicrosPerRequest: round(micros('floor')),
        libraryIssueMicrosPerOp: round(median(libraryRounds.issue)),
        verifyServerMicrosPerRequest: round(micros('verify')),
        libraryVerifyMicrosPerOp: round(libraryVerify),
        verifyUnseenCpuRatio: round(verifyUnseen.micros / libraryVerify),
        verifyUnseenServerMicrosPerRequest: round(verifyUnseen.micros),
        verifyKbServerMicrosPerRequest: round(micros('verifyKb')),
        libraryVerifyKbMicrosPerOp: round(median(libraryRounds.verifyKb)),
        issueRequestsPerSecond: round(rate('issue')),
        verifyRequestsPerSecond: round(rate('verify')),
        verifyKbRequestsPerSecond: round(rate('verifyKb')),
        requestsPerRound: N,
        rounds: ROUNDS,
        connections: CONNECTIONS,
        errors,
      };
    } finally {
      await service.close();
    }
  },
});
