/**
 * Every service of the platform built in this process on a throw-away data folder,
 * never served: what `npm run docs` and `npm run lint:openapi` read their routes and
 * OpenAPI documents from.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES, type ServiceName } from '@xv/platform';
import { type BuiltService, buildService, type ServiceDefinition } from '@xv/platform/service';
import { isChainReady, spawnDevChain } from '../../packages/cli/src/devchain.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));

async function definitionOf(name: ServiceName): Promise<ServiceDefinition> {
  const module: Record<string, unknown> = await import(`@xv/${name}`);
  const definition = module[`${name}Service`];
  if (!definition) throw new Error(`@xv/${name} exports no ${name}Service`);
  return definition as ServiceDefinition;
}

/**
 * Builds each service in turn, hands it to `visit`, then closes it. The chain
 * service checks its node when it starts, so a local one runs meanwhile.
 */
export async function withEachService(
  visit: (name: ServiceName, built: BuiltService) => Promise<void>,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xv-build-'));
  const chainPort = 20_000 + Math.floor(Math.random() * 20_000);
  const chainRpcUrl = `http://127.0.0.1:${chainPort}`;
  const chain = spawnDevChain({ port: chainPort });
  try {
    for (let tries = 0; !(await isChainReady(chainRpcUrl)); tries++) {
      if (tries > 100) throw new Error('the local chain did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const name of SERVICE_NAMES) {
      const built = await buildService(await definitionOf(name), {
        env: {
          XV_DATA_DIR: dataDir,
          XV_LOG_LEVEL: 'silent',
          XV_CHAIN_RPC_URL: chainRpcUrl,
          // Nothing listens there: the services are built, never served.
          XV_IDENTITY_URL: 'http://127.0.0.1:9',
        },
        recordRoutesFrom: root,
      });
      try {
        await visit(name, built);
      } finally {
        await built.close();
      }
    }
  } finally {
    chain.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
