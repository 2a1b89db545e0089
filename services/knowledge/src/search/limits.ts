/**
 * @module search/limits
 * How many documents a search answers with: the default, and the most a caller
 * may ask for over HTTP and MCP (more is refused with `top_k_too_large`). The
 * figures are the platform's, which the agent's tool shares.
 */
import { KNOWLEDGE_SEARCH_DEFAULT_TOP_K, KNOWLEDGE_SEARCH_MAX_TOP_K } from '@xv/platform';

export const MAX_TOP_K = KNOWLEDGE_SEARCH_MAX_TOP_K;
export const DEFAULT_TOP_K = KNOWLEDGE_SEARCH_DEFAULT_TOP_K;
