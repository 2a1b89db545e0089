/**
 * @module commands/reindex
 * `xv kb reindex`: re-embeds every approved document with the embedder the
 * settings name now, and rebuilds the chunks, the lexical index and the vector
 * table. It opens the knowledge database directly (same settings as the
 * service), so it works whether or not the service is running; a running
 * service sees the new index at its next search.
 */
import { createLogger, loadPlatformSettings, loadSettings, migrate } from '@xv/platform';
import { openServiceDatabase } from '@xv/platform/service';
import type { KnowledgeTables } from '../db.js';
import { migrations } from '../migrations/index.js';
import { openKnowledgeIndex } from '../search/open-index.js';
import { loadVectorExtension } from '../search/vector-index.js';
import { knowledgeSettings } from '../settings.js';

type Env = Record<string, string | undefined>;

export async function reindexKnowledgeBase(env: Env = process.env) {
  const config = loadSettings(knowledgeSettings, env);
  const database = await openServiceDatabase<KnowledgeTables>(loadPlatformSettings('knowledge', env));
  try {
    loadVectorExtension(database);
    await migrate(database, migrations);
    const index = await openKnowledgeIndex(database, config, createLogger('knowledge', 'error'));
    return { ...(await index.reindex()), vectorBackend: index.vectors.backend };
  } finally {
    await database.close();
  }
}
