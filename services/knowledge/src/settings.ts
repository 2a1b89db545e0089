/**
 * @module settings
 * The knowledge service's own settings.
 */
import { httpUrl, type Settings, setting, z } from '@xv/platform';

export const knowledgeSettings = {
  embeddingsUrl: setting('XV_KB_EMBEDDINGS_URL', httpUrl().optional()),
  embeddingsModel: setting('XV_KB_EMBEDDINGS_MODEL', z.string().min(1).default('text-embedding-3-small')),
  embeddingsKey: setting('XV_KB_EMBEDDINGS_KEY', z.string().min(1).optional(), { secret: true }),
  offlineDimensions: setting(
    'XV_KB_EMBEDDING_DIMENSIONS',
    z.coerce.number().int().min(16).max(4096).default(384),
  ),
  vectorBackend: setting('XV_KB_VECTOR_BACKEND', z.enum(['auto', 'scan']).default('auto')),
  /** Public searches (`POST /api/public/search`, no sign-in) per minute from one IP address. */
  publicSearchPerMinute: setting(
    'XV_KB_PUBLIC_SEARCH_PER_MINUTE',
    z.coerce.number().int().positive().default(60),
  ),
  mcpAllowedHosts: setting(
    'XV_KB_MCP_ALLOWED_HOSTS',
    z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .split(',')
              .map((h) => h.trim().toLowerCase())
              .filter(Boolean)
          : [],
      ),
  ),
};

export type KnowledgeSettings = Settings<typeof knowledgeSettings>;
