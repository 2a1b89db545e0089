/**
 * @module tools/knowledge-search
 * `knowledgeBaseSearch`: asks the knowledge base (`POST {XV_KB_URL}/api/ai/search`)
 * with the agent's personal access token (scope `ai:read`, `XV_AGENT_KB_TOKEN`).
 * Failures are thrown as plain sentences: the model reads them as the tool's result.
 */
import { z } from '@xv/platform';

export const knowledgeSearchInput = z.object({
  query: z.string().trim().min(1).max(500).describe('What to look for'),
  topK: z.coerce.number().int().min(1).max(20).default(5).describe('How many passages to return (default 5)'),
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

export async function searchKnowledgeBase(
  options: { kbUrl: string; token: string | undefined; signal?: AbortSignal },
  input: z.input<typeof knowledgeSearchInput>,
): Promise<{ hits: KnowledgeHit[] }> {
  const { query, topK } = knowledgeSearchInput.parse(input);
  if (!options.token) throw new Error('The knowledge base is not connected (XV_AGENT_KB_TOKEN is not set).');
  const timeout = AbortSignal.timeout(SEARCH_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${options.kbUrl}/api/ai/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, topK }),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch {
    throw new Error(
      timeout.aborted ? 'The knowledge base did not answer in time.' : 'The knowledge base is unreachable.',
    );
  }
  if (!response.ok) throw new Error(`The knowledge base answered HTTP ${response.status}.`);
  const body = (await response.json().catch(() => ({}))) as { hits?: unknown };
  if (!Array.isArray(body.hits)) throw new Error('The knowledge base sent an answer without hits.');
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
