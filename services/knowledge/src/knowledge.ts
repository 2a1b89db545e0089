/**
 * @module knowledge
 * The parts of the knowledge service that routes, pages and the MCP server share.
 */
import type { Logger, PublicOrganizations, RateLimiter } from '@xv/platform';
import type { Authenticator } from './auth.js';
import type { DocumentStore } from './documents/documents.js';
import type { KnowledgeIndex } from './search/knowledge-index.js';
import type { TokenStore } from './tokens/tokens.js';

export interface Knowledge {
  auth: Authenticator;
  tokens: TokenStore;
  documents: DocumentStore;
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

export const MAX_TOP_K = 50;
export const DEFAULT_TOP_K = 5;
