/**
 * @module http/context
 * What the routes, pages and the MCP server share: the domain objects the
 * service's wiring built, and the request-level pieces (who is calling, limits).
 */
import type { Logger, PublicOrganizations, RateLimiter } from '@xv/platform';
import type { DocumentReader } from '../documents/read-model.js';
import type { ReviewWorkflow } from '../documents/review.js';
import type { KnowledgeIndex } from '../search/knowledge-index.js';
import type { TokenStore } from '../tokens/tokens.js';
import type { Authenticator } from './auth.js';

export interface Knowledge {
  auth: Authenticator;
  tokens: TokenStore;
  /** The Maker-Checker workflow: push, submit, decide, retire, visibility. */
  review: ReviewWorkflow;
  /** Read models: lists, details with history, the manifest, approved documents. */
  documents: DocumentReader;
  index: KnowledgeIndex;
  logger: Logger;
  /** Identity's public organization records: whether an organization's public assistant is on. */
  organizations: PublicOrganizations;
  /** Limits `POST /api/public/search` per IP address. */
  publicSearchLimiter: RateLimiter;
  trustProxy: boolean;
  /** Public base URL of this service. */
  url: string;
  identityUrl: string;
  sharedDomain: string;
}
