/**
 * Profiles identity's server during the credential benchmark's issue load or its
 * verify-with-key-binding load: the same requests as `bench/credentials.bench.ts`,
 * with the V8 CPU profiler (node:inspector) running only while the measured load
 * runs. Writes `<out>.cpuprofile` and prints server CPU µs per request.
 *
 *   node --conditions=xv-source --import tsx bench/profile/credentials-profile.ts issue|kb [out]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { identityService } from '@xv/identity';
import { issueOne, newWallet, presentWithKeyBinding, walletCredential } from '../lib/credentials-setup.js';
import { signUp } from '../lib/identity.js';
import { type LoadOptions, runLoad } from '../lib/load.js';
import { serveForBench } from '../lib/services.js';
import { profiled, SqliteStatementTimes } from './profiler.js';

/** SQL_TIMES=1: wall µs each SQL statement spends in better-sqlite3, per request. */
const sqlTimes = new SqliteStatementTimes();

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

const service = await serveForBench(identityService);
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
  const threadsBefore = threadCpu();
  const load = await profiled(out, async () => {
    if (process.env.MARK) console.log('MEASURE-START');
    sqlTimes.on = true;
    const result = await runLoad(measured);
    sqlTimes.on = false;
    if (process.env.MARK) console.log('MEASURE-END');
    return result;
  });
  const threadsAfter = threadCpu();
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
  for (const t of sqlTimes.times.values()) sqlTotal += t.micros;
  if (sqlTimes.times.size)
    console.log(`SQL in better-sqlite3: ${(sqlTotal / load.answered).toFixed(1)} µs/req`);
  for (const line of sqlTimes.report(load.answered, 'req')) console.log(line);
} finally {
  await service.close();
}
