/**
 * A knowledge service restarting on an existing SQLite file: its `vec0` table is
 * unreadable until sqlite-vec is loaded, so the extension must be in place before
 * the migrations read the schema.
 */
import { createLogger, loadSettings, migrate, openDatabase } from '@xv/platform';
import { startService, tempDir } from '@xv/platform/testing';
import { expect, it } from 'vitest';
import type { KnowledgeDatabase } from '../src/db.js';
import { DocumentStore } from '../src/documents/documents.js';
import { contentHash } from '../src/documents/hash.js';
import { migrations } from '../src/migrations/index.js';
import { openKnowledgeIndex } from '../src/open-index.js';
import { loadVectorExtension } from '../src/search/vector-index.js';
import { knowledgeService } from '../src/service.js';
import { knowledgeSettings } from '../src/settings.js';

it('starts again on a database that already holds vectors', async () => {
  const dataDir = tempDir();
  const opened = await openDatabase({ service: 'knowledge', dataDir });
  const first = opened as unknown as KnowledgeDatabase;
  loadVectorExtension(first);
  await migrate(opened, migrations);
  const index = await openKnowledgeIndex(
    first,
    loadSettings(knowledgeSettings, {}),
    createLogger('kb', 'silent'),
  );
  const store = new DocumentStore(first, index);
  const person = (userId: string) => ({
    userId,
    email: `${userId}@x.test`,
    orgId: 'org_x',
    via: 'session' as const,
    scopes: [],
    permissions: ['review:decide'],
  });
  const content = '# Canteen\n\nLunch is served from noon to two.';
  const { docId } = await store.push(person('usr_a'), {
    path: 'canteen.md',
    content,
    hash: contentHash(content),
  });
  await store.submit(person('usr_a'), docId);
  await store.decide(person('usr_b'), docId, 'approve');
  await first.close();

  const second = await openDatabase({ service: 'knowledge', dataDir });
  const service = await startService(knowledgeService, { database: second });
  expect((await service.fetch('/readyz')).status).toBe(200);
  await service.close();
  await second.close();
});
