#!/usr/bin/env node
// Bundles each service's browser code (`src/client/*.ts|css`) into
// `dist/client/<name>-<hash>.js|css` with a manifest, after `tsc -b` built the
// platform (`npm run build`, and the `xv` command before it starts anything).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { writeClientBundles } = await import(join(root, 'packages/platform/dist/pages/assets.js'));
// The platform's own browser code (the page shell's script) first, then each service's.
const packages = [
  'packages/platform',
  ...readdirSync(join(root, 'services')).map((name) => `services/${name}`),
];
for (const service of packages) {
  const packageRoot = join(root, service);
  if (!existsSync(join(packageRoot, 'src', 'client'))) continue;
  const count = await writeClientBundles(packageRoot);
  if (process.argv.includes('--verbose')) console.log(`${service}: ${count} browser bundles`);
}
