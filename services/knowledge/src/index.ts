export type { KnowledgeDatabase } from './db.js';
export { contentHash } from './documents/hash.js';
export { migrations } from './migrations/index.js';
export { openKnowledgeIndex } from './open-index.js';
export { reindexKnowledgeBase } from './reindex.js';
export { knowledgeService } from './service.js';
export { knowledgeSettings } from './settings.js';
