/**
 * @module knowledge-search
 * The knowledge base's search limits, shared by every caller of it (the HTTP
 * API, the MCP tool, the agent's tool): hits are documents, `topK` counts them,
 * and more than the maximum is refused with `top_k_too_large`, never capped.
 */

export const KNOWLEDGE_SEARCH_DEFAULT_TOP_K = 5;
export const KNOWLEDGE_SEARCH_MAX_TOP_K = 50;
