/**
 * @module router/models
 * How the router asks a model: through the shared model layer (`@xv/platform`'s
 * model catalog and `generateChat`), one whole answer, no retries (the router
 * falls back to the next model itself).
 */
import { ChatFailure, createModelCatalog, generateChat, type ModelSettings } from '@xv/platform/ai';
import type { AskModel, DescribeFailure } from './router.js';

export function modelLayerAsk(settings: ModelSettings): AskModel {
  const catalog = createModelCatalog(settings);
  return async (reference, prompt, { system, signal, timeoutMs }) => {
    const model = catalog.resolve(reference);
    const { text } = await generateChat({
      model,
      ...(system ? { system } : {}),
      messages: [{ role: 'user', content: prompt }],
      maxSteps: 1,
      maxRetries: 0,
      abortSignal: signal,
      timeoutMs,
    });
    return text;
  };
}

export const describeModelFailure: DescribeFailure = (error) => {
  if (error instanceof ChatFailure) return error.kind === 'http' ? `http_${error.status}` : error.kind;
  return 'error';
};
