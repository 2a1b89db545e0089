/**
 * @module search/open-index
 * Assembles the knowledge index for a database: the configured embedder (the
 * offline one unless an OpenAI-compatible endpoint is set) and the best vector
 * backend the database offers. Shared by the service and `xv kb reindex`.
 */
import type { Logger } from '@xv/platform';
import type { KnowledgeDatabase } from '../db.js';
import type { KnowledgeSettings } from '../settings.js';
import { type Embedder, OfflineEmbedder, RemoteEmbedder } from './embedder.js';
import { KnowledgeIndex } from './knowledge-index.js';
import type { LexicalTuning } from './lexical-index.js';
import { openVectorIndex, type VectorTuning } from './vector-index.js';

export function createEmbedder(config: KnowledgeSettings): Embedder {
  if (config.embeddingsUrl)
    return new RemoteEmbedder({
      url: config.embeddingsUrl,
      model: config.embeddingsModel,
      apiKey: config.embeddingsKey,
    });
  return new OfflineEmbedder(config.offlineDimensions);
}

/** Where search switches to its large-organization paths; the defaults suit production, tests move them. */
export type SearchTuning = Partial<LexicalTuning & VectorTuning & { changesKept: number }>;

export async function openKnowledgeIndex(
  database: KnowledgeDatabase,
  config: KnowledgeSettings,
  logger: Logger,
  tuning: SearchTuning = {},
): Promise<KnowledgeIndex> {
  const vectors = await openVectorIndex(database, config.vectorBackend, tuning);
  const index = new KnowledgeIndex(
    database,
    createEmbedder(config),
    vectors,
    (message) => logger.warn(message),
    tuning,
  );
  logger.info(
    { vectorBackend: vectors.backend, embedder: index.embedder.fingerprint },
    'knowledge index ready',
  );
  await index.checkIndex();
  return index;
}
