/**
 * Profiles identity's server during the credential benchmark's issue load or its
 * verify-with-key-binding load: the same requests as `bench/credentials.bench.ts`,
 * with the V8 CPU profiler (node:inspector) running only while the measured load
 * runs. Writes `<out>.cpuprofile` and prints server CPU µs per request.
 *
 *   node --conditions=xv-source --import tsx bench/profile/credentials-profile.ts issue|kb [out]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { identityService } from '@xv/identity';
import { issueOne, newWallet, presentWithKeyBinding, walletCredential } from '../lib/credentials-setup.js';
import { signUp } from '../lib/identity.js';
import { type LoadOptions, runLoad } from '../lib/load.js';
import { serveForBench } from '../lib/services.js';

/** SQL_TIMES=1: wall µs each SQL statement spends in better-sqlite3 (all/run/get), per request. */
const sqlTimes = new Map<string, { calls: number; micros: number }>();
let timing = false;
if (process.env.SQL_TIMES === '1') {
  const SQLite = createRequire(import.meta.url)('better-sqlite3');
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  for (const method of ['all', 'run', 'get', 'iterate']) {
    const original = proto[method];
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (!timing) return original.apply(this, args);
      const start = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const entry = sqlTimes.get(this.source) ?? { calls: 0, micros: 0 };
        entry.calls += 1;
        entry.micros += Number(process.hrtime.bigint() - start) / 1000;
        sqlTimes.set(this.source, entry);
      }
    };
  }
}

/** CPU seconds per thread of this process (from /proc, in 10 ms ticks), by thread name. */
function threadCpu(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
      const key =
        tid === String(process.pid)
          ? 'main'
          : process.env.BY_TID
            ? `${name}:${Number(tid) - process.pid}`
            : name.replace(/[0-9]+$/, '#');
      byName.set(key, (byName.get(key) ?? 0) + seconds);
    } catch {}
  }
  return byName;
}

const which = process.argv[2] ?? 'issue';
const out = process.argv[3] ?? `/tmp/credentials-${which}`;
const N = Number(process.env.N ?? 3000);
const profile = process.env.PROFILE !== '0';

const service = await serveForBench(identityService);
const session = new Session();
session.connect();
try {
  const { url } = service;
  const person = await signUp(url);
  const base: LoadOptions = {
    url: '',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: 16,
  };
  let warm: LoadOptions;
  let measured: LoadOptions;
  if (which === 'issue') {
    const body = JSON.stringify({ type: 'IdentityCredential' });
    measured = {
      ...base,
      url: `${url}/api/did/issue`,
      headers: { ...base.headers, cookie: person.cookie },
      body,
      amount: N,
    };
    warm = { ...measured, amount: Number(process.env.WARM ?? N) };
  } else {
    await issueOne(url, person.cookie);
    const wallet = newWallet();
    const bound = await walletCredential(url, person.cookie, wallet);
    const aud = 'https://verifier.example';
    const WARM = Number(process.env.WARM ?? 3000);
    const bodies = Array.from({ length: WARM + N }, (_, i) =>
      JSON.stringify({ token: presentWithKeyBinding(bound, wallet, `n-${i}`, aud), nonce: `n-${i}`, aud }),
    );
    const common = { ...base, url: `${url}/api/did/verify`, expect: '"valid":true', once: true };
    warm = { ...common, bodies: bodies.slice(0, WARM) };
    measured = { ...common, bodies: bodies.slice(WARM) };
  }
  await runLoad(warm);
  if (profile) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 250) });
    await session.post('Profiler.start');
  }
  if (process.env.MARK) console.log('MEASURE-START');
  timing = true;
  const threadsBefore = threadCpu();
  const load = await runLoad(measured);
  const threadsAfter = threadCpu();
  timing = false;
  if (process.env.MARK) console.log('MEASURE-END');
  if (profile) {
    const { profile: cpu } = await session.post('Profiler.stop');
    writeFileSync(`${out}.cpuprofile`, JSON.stringify(cpu));
  }
  const micros = (load.cpuSeconds * 1e6) / Math.max(1, load.answered);
  console.log(
    JSON.stringify({
      which,
      answered: load.answered,
      errors: load.errors + load.non2xx + load.unexpected,
      serverMicrosPerRequest: Math.round(micros),
      requestsPerSecond: Math.round(load.requestsPerSecond),
    }),
  );
  const perThread: Record<string, number> = {};
  for (const [name, seconds] of threadsAfter)
    perThread[name] = Math.round(((seconds - (threadsBefore.get(name) ?? 0)) * 1e6) / load.answered);
  console.log('thread CPU µs/req', JSON.stringify(perThread));
  let sqlTotal = 0;
  for (const t of sqlTimes.values()) sqlTotal += t.micros;
  if (sqlTimes.size) console.log(`SQL in better-sqlite3: ${(sqlTotal / load.answered).toFixed(1)} µs/req`);
  for (const [sql, t] of [...sqlTimes].sort((a, b) => b[1].micros - a[1].micros))
    console.log(
      `${(t.micros / load.answered).toFixed(1).padStart(6)} µs/req ${(t.calls / load.answered).toFixed(3)} calls/req  ${sql.slice(0, 140)}`,
    );
} finally {
  session.disconnect();
  await service.close();
}
