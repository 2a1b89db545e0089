/**
 * @module bench/lib/services
 * Starts a service for a benchmark the way production runs it: its own SQLite
 * file in a temporary folder, logs off, a real HTTP port. A benchmark that seeds
 * tables itself opens the database (typed by the service's tables) and passes it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyDatabase, SettingsSpec } from '@xv/platform';
import { SERVICES } from '@xv/platform';
import { listen } from '@xv/platform/http';
import { buildService, type ServiceDefinition } from '@xv/platform/service';

export async function serveForBench<S extends SettingsSpec>(
  definition: ServiceDefinition<S>,
  env: Record<string, string> = {},
  database?: AnyDatabase,
) {
  const dataDir = mkdtempSync(join(tmpdir(), `xv-bench-${definition.name}-`));
  const key = SERVICES[definition.name].envKey;
  const built = await buildService(definition, {
    env: { XV_LOG_LEVEL: 'silent', XV_DATA_DIR: dataDir, [`XV_${key}_PORT`]: '0', ...env },
    database,
  });
  const server = await listen(built.app, 0, '127.0.0.1');
  return {
    ...built,
    url: `http://127.0.0.1:${server.port}`,
    async close() {
      await server.close(1000);
      await built.close();
    },
  };
}
