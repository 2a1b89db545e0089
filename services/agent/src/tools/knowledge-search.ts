/**
 * @module tools/knowledge-search
 * `knowledgeBaseSearch`: searches the knowledge base as the session's principal,
 * never with a credential of its own:
 *
 * - a member of the session's organization: `POST {XV_KB_URL}/api/ai/search` with
 *   the person's own `xv_session` and `xv_org=<organization>`, so the knowledge
 *   base applies their rights in that organization;
 * - a session of an organization's public assistant: `POST /api/public/search`,
 *   which answers only the documents the organization marked public, and only while
 *   its public assistant is on;
 * - anything else: the model is told the knowledge base is not available here.
 *
 * Hits are documents, each once with its best passage; `topK` follows the knowledge
 * base's limits (more than its maximum is refused, as the knowledge base refuses it).
 * Failures are thrown as plain sentences: the model reads them as the tool's result.
 * Each carries its reason too, so an answer without a model can say it in the
 * reader's language.
 */
import {
  KNOWLEDGE_SEARCH_DEFAULT_TOP_K,
  KNOWLEDGE_SEARCH_MAX_TOP_K,
  ORG_COOKIE,
  SESSION_COOKIE,
  z,
} from '@xv/platform';
import type { TenantAccess } from '../access/tenancy.js';

export const knowledgeSearchInput = z.object({
  query: z.string().trim().min(1).max(500).describe('What to look for'),
  topK: z.coerce
    .number()
    .int()
    .min(1)
    .max(KNOWLEDGE_SEARCH_MAX_TOP_K)
    .default(KNOWLEDGE_SEARCH_DEFAULT_TOP_K)
    .describe(
      `How many documents to return, each once with its best passage (default ${KNOWLEDGE_SEARCH_DEFAULT_TOP_K}, at most ${KNOWLEDGE_SEARCH_MAX_TOP_K})`,
    ),
});

export interface KnowledgeHit {
  docId: string;
  title: string;
  headingPath: string;
  text: string;
  score: number;
}

const SEARCH_TIMEOUT_MS = 10_000;
const MAX_PASSAGE_CHARS = 1_500;

export const KNOWLEDGE_NOT_AVAILABLE =
  'The knowledge base is not available to this conversation: sign in, or talk to an organization that offers a public assistant.';

/** Why a knowledge search failed. */
export type KnowledgeSearchFailure = 'not_available' | 'timeout' | 'unreachable' | 'refused' | 'malformed';

export class KnowledgeSearchError extends Error {
  constructor(
    readonly reason: KnowledgeSearchFailure,
    message: string,
    /** The knowledge base's HTTP status, when it refused. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'KnowledgeSearchError';
  }
}

/** The knowledge base request that searches as `access`; undefined when it opens no knowledge. */
function searchRequest(access: TenantAccess, query: string, topK: number) {
  const json = { 'content-type': 'application/json' };
  if (access.kind === 'member')
    return {
      path: '/api/ai/search',
      headers: { ...json, cookie: `${SESSION_COOKIE}=${access.sessionToken}; ${ORG_COOKIE}=${access.orgId}` },
      body: { query, topK },
    };
  if (access.kind === 'public')
    return { path: '/api/public/search', headers: json, body: { orgId: access.orgId, query, topK } };
  return undefined;
}

export async function searchKnowledgeBase(
  options: { kbUrl: string; access: TenantAccess; signal?: AbortSignal },
  input: z.input<typeof knowledgeSearchInput>,
): Promise<{ hits: KnowledgeHit[] }> {
  const { query, topK } = knowledgeSearchInput.parse(input);
  const request = searchRequest(options.access, query, topK);
  if (!request) throw new KnowledgeSearchError('not_available', KNOWLEDGE_NOT_AVAILABLE);
  const timeout = AbortSignal.timeout(SEARCH_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${options.kbUrl}${request.path}`, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(request.body),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch {
    throw timeout.aborted
      ? new KnowledgeSearchError('timeout', 'The knowledge base did not answer in time.')
      : new KnowledgeSearchError('unreachable', 'The knowledge base is unreachable.');
  }
  if (!response.ok)
    throw new KnowledgeSearchError(
      'refused',
      `The knowledge base answered HTTP ${response.status}.`,
      response.status,
    );
  const body = (await response.json().catch(() => ({}))) as { hits?: unknown };
  if (!Array.isArray(body.hits))
    throw new KnowledgeSearchError('malformed', 'The knowledge base sent an answer without hits.');
  return {
    hits: body.hits.slice(0, topK).map((hit: Partial<KnowledgeHit>) => ({
      docId: String(hit.docId ?? ''),
      title: String(hit.title ?? ''),
      headingPath: String(hit.headingPath ?? ''),
      text: String(hit.text ?? '').slice(0, MAX_PASSAGE_CHARS),
      score: Number(hit.score ?? 0),
    })),
  };
}
