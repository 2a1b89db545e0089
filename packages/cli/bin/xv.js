#!/usr/bin/env node
// The `xv` command. It compiles the TypeScript sources first when they changed
// (`tsc -b` skips up-to-date projects) and bundles the browser code, then runs
// the compiled CLI.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const require = createRequire(import.meta.url);

let tsc;
try {
  tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
} catch {
  // A production install without dev dependencies runs what was built before.
}
if (tsc && process.env.XV_SKIP_BUILD !== '1') {
  const build = spawnSync(process.execPath, [tsc, '-b', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('xv: the TypeScript build failed; see the errors above.');
    process.exit(build.status ?? 1);
  }
  // Browser code is bundled after the platform it uses is built (scripts/build-client.mjs).
  const bundle = spawnSync(process.execPath, [join(root, 'scripts', 'build-client.mjs')], {
    stdio: 'inherit',
  });
  if (bundle.status !== 0) {
    console.error('xv: bundling the browser code failed; see the errors above.');
    process.exit(bundle.status ?? 1);
  }
}
const main = join(root, 'packages', 'cli', 'dist', 'main.js');
if (!existsSync(main)) {
  console.error(
    'xv: packages/cli/dist is missing; run `npm install` (with dev dependencies) and `npm run build`.',
  );
  process.exit(1);
}
await import(main);
