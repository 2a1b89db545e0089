/**
 * `npm run bench -- <name>`: runs one benchmark from `bench/<name>.bench.ts` and
 * prints its figures, then one JSON line. Without a name it lists them.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Benchmark, describeBound, meets } from './lib/harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts'));
const load = async (file: string) =>
  (await import(pathToFileURL(join(here, file)).href)).default as Benchmark;

const name = process.argv[2];
if (!name) {
  process.stdout.write('Usage: npm run bench -- <name>\n\n');
  for (const file of files.sort()) {
    const bench = await load(file);
    process.stdout.write(`  ${bench.name.padEnd(24)} ${bench.description}\n`);
  }
  process.exit(0);
}
const file = files.find((f) => f === `${name}.bench.ts`);
if (!file) {
  process.stderr.write(`bench: no benchmark named ${name}; run \`npm run bench\` for the list\n`);
  process.exit(2);
}
const bench = await load(file);
process.stdout.write(`${bench.name}: ${bench.description}\n`);
const figures = await bench.run();
const width = Math.max(...Object.keys(figures).map((k) => k.length));
for (const [key, value] of Object.entries(figures)) {
  const goals = (bench.goals ?? []).filter((goal) => goal.figure === key);
  const judged = goals.map(
    (goal) => `goal ${describeBound(goal)} (${goal.says}): ${meets(goal, figures) ? 'met' : 'NOT met'}`,
  );
  process.stdout.write(
    `  ${key.padEnd(width)}  ${String(value).padEnd(10)}${judged.length ? `  ${judged.join('; ')}` : ''}\n`,
  );
}
process.stdout.write(`${JSON.stringify({ bench: bench.name, ...figures })}\n`);
process.exit(0);
