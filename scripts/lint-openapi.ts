/**
 * `npm run lint:openapi`: writes the OpenAPI document of every service (each built,
 * never served) to a throw-away folder and lints them with Redocly's recommended
 * rules and `redocly.yaml`; fails on any error. `--keep DIR` writes them to DIR instead.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { root, withEachService } from './lib/built-services.js';

const keepAt = process.argv.indexOf('--keep');
const outDir =
  keepAt > 0 ? resolve(process.argv[keepAt + 1] ?? '.') : mkdtempSync(join(tmpdir(), 'xv-openapi-'));
mkdirSync(outDir, { recursive: true });
const files: string[] = [];
try {
  await withEachService(async (name, built) => {
    const response = await built.app.request('/openapi.json');
    if (!response.ok) throw new Error(`${name}: /openapi.json answered ${response.status}`);
    const file = join(outDir, `${name}.json`);
    writeFileSync(file, `${JSON.stringify(await response.json(), null, 2)}\n`);
    files.push(file);
  });
  const lint = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/@redocly/cli/bin/cli.js'),
      'lint',
      `--config=${join(root, 'redocly.yaml')}`,
      ...files,
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  process.exitCode = lint.status ?? 1;
} finally {
  if (keepAt < 0) rmSync(outDir, { recursive: true, force: true });
}
process.exit(process.exitCode);
