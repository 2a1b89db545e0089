/**
 * @module workflows/connectors/kb-search
 * `kb.search`: semantic search in the knowledge base (`POST /api/ai/search`) with
 * a personal access token of scope `ai:read` (`XV_ORCH_KB_TOKEN`). Output: `{hits}`.
 */
import { z } from '@xv/platform';
import { defineConnector, StepError } from './connector.js';
import { callHttp } from './fetch.js';

export function kbSearchConnector(options: { kbUrl: string; token: string | undefined }) {
  return defineConnector({
    name: 'kb.search',
    description: 'Semantic search over approved knowledge base documents; output {hits}.',
    params: z.strictObject({
      query: z.string().trim().min(1).max(2000),
      topK: z.coerce.number().int().min(1).max(50).default(5),
    }),
    async run(params, { signal }) {
      if (!options.token) throw new StepError('XV_ORCH_KB_TOKEN is not set.', false);
      const { body } = await callHttp('The knowledge base', `${options.kbUrl}/api/ai/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}` },
        body: params,
        signal,
      });
      const hits = (body as { hits?: unknown } | null)?.hits;
      if (!Array.isArray(hits)) throw new StepError('The knowledge base answered without hits.', true);
      return { hits };
    },
  });
}
