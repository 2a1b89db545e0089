export {
  CollectionError,
  type EvaluationOptions,
  type EvaluationReport,
  evaluateCollection,
  evaluationFailure,
  evaluationJson,
  formatEvaluation,
} from './commands/eval.js';
export { reindexKnowledgeBase } from './commands/reindex.js';
export type { KnowledgeDatabase } from './db.js';
export { contentHash } from './documents/hash.js';
export { migrations } from './migrations/index.js';
export { openKnowledgeIndex } from './search/open-index.js';
export { knowledgeService } from './service.js';
export { knowledgeSettings } from './settings.js';
