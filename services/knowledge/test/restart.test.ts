/**
 * A knowledge service restarting on an existing SQLite file: its `vec0` table is
 * unreadable until sqlite-vec is loaded, so the extension must be in place before
 * the migrations read the schema.
 */
import { openDatabase } from '@xv/platform';
import { startService, tempDir } from '@xv/platform/testing';
import { expect, it } from 'vitest';
import { knowledgeService } from '../src/service.js';
import { approveDirectly } from './helpers.js';

it('starts again on a database that already holds vectors', async () => {
  const dataDir = tempDir();
  await approveDirectly(
    dataDir,
    {},
    { path: 'canteen.md', content: '# Canteen\n\nLunch is served from noon to two.' },
  );

  const second = await openDatabase({ service: 'knowledge', dataDir });
  const service = await startService(knowledgeService, { database: second });
  expect((await service.fetch('/readyz')).status).toBe(200);
  await service.close();
  await second.close();
});
