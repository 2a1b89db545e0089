#!/usr/bin/env node
// The architecture rules, checked in CI (`npm run lint`):
// - every service keeps HTTP in `src/http/` (and its wiring: `src/service.ts`,
//   `src/main.ts` and the operator commands in `src/commands/`): nothing else
//   imports Hono or the platform's HTTP, page or service modules;
// - no service imports another service's code;
// - browser code (`src/client/`) imports only browser code and libraries;
// - the platform's core imports no Hono;
// - no import cycles;
// - no source file over 400 lines, and no cast of a database type.
// Dependency rules run on dependency-cruiser's API: its command line refuses Node 20,
// and it reads TypeScript with @swc/core (TypeScript 7 has no compiler API).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cruise } from 'dependency-cruiser';

const root = new URL('..', import.meta.url).pathname;
const SERVICES = 'identity|knowledge|trust|chain|agent|orchestration';
const HTTP =
  '(^|node_modules/)(hono|@hono/[^/]+)(/|$)|^@xv/platform/(http|pages|service)$|^packages/platform/src/(http|pages)/|^packages/platform/src/service\\.ts$';
const TESTS = '(\\.test\\.tsx?$|/test/|/testing/|/testing\\.ts$|/fixtures/)';

const forbidden = [
  {
    name: 'no-circular',
    comment: 'Import cycles make modules impossible to read or test on their own.',
    severity: 'error',
    from: { pathNot: TESTS },
    to: { circular: true },
  },
  {
    name: 'http-only-in-http',
    comment: 'Domain code takes and returns plain values; only src/http/ (and the wiring) speaks HTTP.',
    severity: 'error',
    from: {
      path: '^services/[^/]+/src/',
      pathNot: `^services/[^/]+/src/(http/|client/|commands/|service\\.ts$|main\\.ts$)|${TESTS}`,
    },
    to: { path: HTTP },
  },
  {
    name: 'no-cross-service',
    comment: 'Services talk over HTTP; what they share lives in the platform.',
    severity: 'error',
    from: { path: '^services/([^/]+)/src/', pathNot: TESTS },
    to: { path: `^services/[^/]+/|^@xv/(${SERVICES})(/|$)`, pathNot: '^services/$1/' },
  },
  {
    name: 'client-is-browser-code',
    comment:
      'Browser bundles cannot reach server modules (their catalogues and the platform’s i18n are plain data).',
    severity: 'error',
    from: { path: '^services/[^/]+/src/client/' },
    to: {
      path: '^services/[^/]+/src/(?!client/|messages/)|^packages/|^@xv/|^node:|^(fs|path|crypto|http|https|net|os|child_process)$',
      pathNot: '^packages/platform/src/(i18n\\.ts|messages/)|^@xv/platform/i18n$',
    },
  },
  {
    name: 'platform-core-without-http',
    comment: 'The platform core (`@xv/platform`) serves domain code, which must not pull in Hono.',
    severity: 'error',
    from: {
      path: '^packages/platform/src/',
      pathNot: `^packages/platform/src/(http/|pages/|service\\.ts$)|${TESTS}`,
    },
    to: { path: '(^|node_modules/)(hono|@hono/[^/]+)(/|$)|^packages/platform/src/(http|pages)/' },
  },
];

const sources = [
  'packages/platform/src',
  'packages/cli/src',
  ...readdirSync(join(root, 'services')).map((s) => `services/${s}/src`),
];
const result = await cruise(
  sources,
  {
    ruleSet: { forbidden },
    validate: true,
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // node_modules stay in the graph as leaves (doNotFollow): an import of hono must be seen.
    exclude: { path: '^(services|packages)/[^/]+/dist/' },
  },
  {
    extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    conditionNames: ['xv-source', 'import', 'node', 'default'],
  },
);
const problems = result.output.summary.violations.map((v) =>
  v.cycle
    ? `${v.rule.name}: ${v.cycle.map((step) => step.name ?? step).join(' -> ')}`
    : `${v.rule.name}: ${v.from} -> ${v.to}`,
);

// Size and casts, read straight from the files.
const GENERATED = /(^|\/)(migrations\/|fixtures\/)|\.generated\./;
const DB_CAST = /\bas\s+(unknown\s+as\s+)?(Kysely|Database|Transaction)</;
function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(name)) yield path;
  }
}
for (const source of sources)
  for (const path of files(join(root, source))) {
    const name = relative(root, path);
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > 400 && !GENERATED.test(name))
      problems.push(`file-size: ${name} has ${lines} lines (at most 400)`);
    text.split('\n').forEach((line, index) => {
      if (DB_CAST.test(line)) problems.push(`no-db-cast: ${name}:${index + 1}: ${line.trim()}`);
    });
  }

// Tests and benchmarks open databases typed by their tables too.
const elsewhere = ['bench', 'e2e', ...readdirSync(join(root, 'services')).map((s) => `services/${s}/test`)];
for (const folder of elsewhere.filter((folder) => existsSync(join(root, folder))))
  for (const path of files(join(root, folder)))
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (DB_CAST.test(line))
          problems.push(`no-db-cast: ${relative(root, path)}:${index + 1}: ${line.trim()}`);
      });

if (problems.length > 0) {
  console.error(`Architecture rules broken (${problems.length}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`Architecture rules hold (${result.output.summary.totalCruised} modules).`);
