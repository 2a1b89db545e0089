import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { buildService } from '../service.js';
import { sampleService } from '../testing/fixtures/sample-service.js';
import { tempDir } from '../testing/index.js';

const repository = fileURLToPath(new URL('../../../../', import.meta.url));

describe('the route map', () => {
  it('names the file that registered each route, with OpenAPI-style paths', async () => {
    const dataDir = tempDir();
    const database = await openDatabase({ service: 'identity', dataDir });
    const built = await buildService(sampleService, {
      env: { XV_DATA_DIR: dataDir, XV_LOG_LEVEL: 'silent' },
      database,
      recordRoutesFrom: repository,
    });
    await built.close();
    await database.close();
    const echo = built.routes.find((route) => route.path === '/api/echo');
    expect(echo).toEqual({
      method: 'POST',
      path: '/api/echo',
      file: 'packages/platform/src/testing/fixtures/sample-service.ts',
    });
    // Recorded once although the OpenAPI registration goes through Hono's own methods.
    expect(built.routes.filter((route) => route.path === '/api/echo')).toHaveLength(1);
  });
});
