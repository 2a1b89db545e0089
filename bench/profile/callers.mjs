// For samples whose leaf (or any frame) is `name`, the nearest frame from our own code (services/, packages/) above it.
//   node bench/profile/callers.mjs <file.cpuprofile> <functionName> [requests]
import { readFileSync } from 'node:fs';

const [file, name, requestsArg] = process.argv.slice(2);
const requests = Number(requestsArg ?? 1);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const ours = (n) => /\/(services|packages)\//.test(n.callFrame.url) && !/node_modules/.test(n.callFrame.url);
const totals = new Map();
profile.samples.forEach((leaf, i) => {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  let id = leaf;
  let hit = false;
  const chain = [];
  while (id !== undefined) {
    const n = byId.get(id);
    if (n.callFrame.functionName === name) hit = true;
    if (hit && ours(n)) {
      chain.push(
        `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\/(services|packages)\//, '$1/')}`,
      );
      if (chain.length === 2) break;
    }
    id = parent.get(id);
  }
  if (!hit) return;
  const k = chain.join(' <- ') || '(none)';
  totals.set(k, (totals.get(k) ?? 0) + dt);
});
for (const [k, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`${(us / requests).toFixed(1).padStart(7)} µs/req  ${k}`);
