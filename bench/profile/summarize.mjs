// Summarises a .cpuprofile: top self-time and inclusive-time functions, and time per group
// (the innermost frame on a sample's stack that a group's rule matches decides its group).
//   node bench/profile/summarize.mjs <file.cpuprofile> [requests] [top]
import { readFileSync } from 'node:fs';

const [file, requestsArg, topArg] = process.argv.slice(2);
const requests = Number(requestsArg ?? 0);
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const short = (url) => url.replace(/^.*\/(node_modules\/)/, '').replace(/^file:\/\/\/work\/wt-creds2\//, '');
const keyOf = (n) => {
  const f = n.callFrame;
  return `${f.functionName || '(anon)'} ${short(f.url)}:${f.lineNumber + 1}`;
};
const self = new Map();
const incl = new Map();
const groups = new Map();
let total = 0;

// Groups in priority order: a sample belongs to the first group any frame of its stack matches.
const RULES = [
  ['idle', (k) => /^\(idle\)/.test(k)],
  ['GC', (k) => /^\(garbage collector\)/.test(k)],
  ['(program: V8 runtime, not JS)', (k) => /^\(program\)/.test(k)],
  ['ECDSA sign (node:crypto)', (k) => /^(signOneShot|es256Signature) /.test(k)],
  ['ECDSA verify (node:crypto)', (k) => /^(verifyOneShot|verifyEs256) /.test(k)],
  [
    'hashing (SHA-256)',
    (k) => /^(createHash|sha256B64url|digestOf|sdHashOf|hashToken|jwkThumbprint|Hash|digest|update) /.test(k),
  ],
  ['holder key import/cache', (k) => /^(holderKey|importPublicJwk) /.test(k)],
  [
    'user/org reads (subject)',
    (k) => /^(findUserById|findOrganization|findMembership|credentialSubject) /.test(k),
  ],
  ['status-list slot/status', (k) => /status-list\.ts/.test(k)],
  ['DB insert (group commit)', (k) => /batch-insert|compiled-insert/.test(k)],
  ['SD-JWT/JWT building', (k) => /^(packDisclosures|objectDisclosure|newSalt|signEs256|b64urlJson) /.test(k)],
  ['SD-JWT verify (parse, §7.1, claims)', (k) => /verification\/|sd-jwt\.ts|jws\.ts/.test(k)],
  [
    'auth (session/guard)',
    (k) => /sessions\/store|guard\.ts|http\/context\.ts|http\/auth\.ts|revocations\//.test(k),
  ],
  ['issuer/route glue', (k) => /credentials\/|http\/credentials\//.test(k)],
  [
    'SQLite execution (async, unattributed)',
    (k) => /^(all|run|get|iterate) :0/.test(k) || /sqlite-driver/.test(k),
  ],
  ['Kysely executor (unattributed)', (k) => /kysely/.test(k)],
  [
    'socket writes',
    (k) =>
      /^(writev|writeGeneric|writevGeneric|writeBuffer|Socket\._writeGeneric|Socket\._writev|Socket\._write|doWrite|uncork|Writable\.uncork) /.test(
        k,
      ),
  ],
  ['JSON response (c.json)', (k) => /^json hono\/dist\/context/.test(k)],
  ['request body read + JSON.parse', (k) => /#cachedBody|readBody|^json hono\/dist\/request/.test(k)],
  ['zod validation', (k) => /zod/.test(k)],
  ['platform middleware', (k) => /packages\/platform/.test(k)],
  ['hono routing/compose, node-server', (k) => /hono/.test(k)],
  [
    'node http parse/respond',
    (k) => /node:_http|node:http|node:net|node:stream|node:internal\/streams|node:events/.test(k),
  ],
  ['microtasks/ticks (no JS frame)', (k) => /^(runMicrotasks|processTicksAndRejections) /.test(k)],
];

const samples = profile.samples;
const deltas = profile.timeDeltas;
for (let i = 0; i < samples.length; i++) {
  const dt = deltas[i + 1] ?? deltas[i] ?? 0;
  let id = samples[i];
  const leaf = byId.get(id);
  const lk = keyOf(leaf);
  self.set(lk, (self.get(lk) ?? 0) + dt);
  total += dt;
  const seen = new Set();
  const stack = [];
  while (id !== undefined) {
    const n = byId.get(id);
    const k = keyOf(n);
    stack.push(k);
    if (!seen.has(k)) {
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + dt);
    }
    id = parent.get(id);
  }
  let group;
  for (const [g, test] of RULES)
    if (stack.some(test)) {
      group = g;
      break;
    }
  group ??= 'other JS';
  groups.set(group, (groups.get(group) ?? 0) + dt);
}
const busy = total - (groups.get('idle') ?? 0);
const scale = Number(process.env.MAIN_CPU ?? 0);
const fmt = (us) =>
  requests ? `${(us / requests).toFixed(1).padStart(7)} µs/req` : `${(us / 1000).toFixed(1)} ms`;
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
console.log(`total ${fmt(total)} (sampled main thread), busy ${fmt(busy)}`);
console.log('\n-- groups (innermost matching frame) --');
for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1])) {
  if (g === 'idle') continue;
  const share = us / busy;
  console.log(
    `${(100 * share).toFixed(1).padStart(5)}% of busy ${scale ? `${(share * scale).toFixed(0).padStart(4)} µs/req of main-thread CPU` : ''}  ${g}`,
  );
}
console.log('\n-- top self --');
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${pct(us)} ${fmt(us)}  ${k}`);
console.log('\n-- top inclusive --');
for (const [k, us] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, top * 2))
  console.log(`${pct(us)} ${fmt(us)}  ${k}`);
