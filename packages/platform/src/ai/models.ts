/**
 * @module ai/models
 * Model references and how they become AI SDK models. A reference is
 * `<provider>:<model id>`: `openai-compatible:gpt-4o-mini`,
 * `workers-ai:@cf/meta/llama-3.1-8b-instruct`. A provider that is not configured
 * answers 503 `ai_unavailable` with a message naming the settings to set.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { createWorkersAI } from 'workers-ai-provider';
import { defineErrors } from '../errors.js';
import { openAiCompatibleClient, registerPlainCompletion } from './completion.js';
import { type ModelSettings, WORKERS_AI_DEFAULT_BASE_URL } from './settings.js';

export const MODEL_PROVIDERS = ['openai-compatible', 'workers-ai'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

const MODEL_CACHE_SIZE = 64;

export interface ModelRef {
  provider: ModelProvider;
  /** Empty means the provider's configured default model. */
  model: string;
}

export const aiErrors = defineErrors('platform', {
  ai_unavailable: { status: 503, message: 'The AI inference service is not configured.' },
  invalid_model: { status: 400, message: 'The model reference is not `<provider>:<model id>`.' },
});

const SETTINGS_TO_SET: Record<ModelProvider, string> = {
  'openai-compatible': 'MODEL_BASE_URL, MODEL_API_KEY and MODEL_NAME',
  'workers-ai': 'XV_WORKERS_AI_ACCOUNT_ID and XV_WORKERS_AI_TOKEN',
};

export function isModelProvider(value: unknown): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly unknown[]).includes(value);
}

/** Parses `<provider>:<model id>`; the model id may itself contain colons. */
export function parseModelRef(reference: string): ModelRef {
  const colon = reference.indexOf(':');
  const provider = colon < 0 ? reference : reference.slice(0, colon);
  const model = colon < 0 ? '' : reference.slice(colon + 1).trim();
  if (!isModelProvider(provider)) {
    throw aiErrors.invalid_model(
      `Unknown model provider in "${reference.slice(0, 80)}"; use ${MODEL_PROVIDERS.join(' or ')}.`,
    );
  }
  return { provider, model };
}

export interface ResolveOptions {
  /** Workers AI: send the call through the configured AI Gateway (`XV_WORKERS_AI_GATEWAY`). */
  useGateway?: boolean;
}

export interface ModelCatalog {
  /** Which providers have their settings. */
  readonly configured: Record<ModelProvider, boolean>;
  /** The model used when a request names none, or undefined when no provider is configured. */
  readonly defaultRef: ModelRef | undefined;
  /** The AI SDK model for a reference (string or parsed); throws 503 `ai_unavailable` when not configured. */
  resolve(reference?: string | ModelRef, options?: ResolveOptions): LanguageModel;
  /** `provider:model` with the defaults filled in, for logs and answers. */
  describe(reference?: string | ModelRef): string;
}

export function createModelCatalog(settings: ModelSettings): ModelCatalog {
  const configured: Record<ModelProvider, boolean> = {
    'openai-compatible': Boolean(settings.modelBaseUrl && settings.modelApiKey),
    'workers-ai': Boolean(settings.workersAiAccountId && settings.workersAiToken),
  };
  const defaultRef: ModelRef | undefined =
    configured['openai-compatible'] && settings.modelName
      ? { provider: 'openai-compatible', model: settings.modelName }
      : configured['workers-ai']
        ? { provider: 'workers-ai', model: settings.workersAiModel }
        : undefined;

  const openai = configured['openai-compatible']
    ? createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: settings.modelBaseUrl!,
        apiKey: settings.modelApiKey!,
        includeUsage: true,
      })
    : undefined;
  // Plain turns to the same endpoint skip the SDK (see ./completion.ts).
  const openaiPlain = openai
    ? openAiCompatibleClient({ baseUrl: settings.modelBaseUrl!, apiKey: settings.modelApiKey! })
    : undefined;
  const workersAi = (gateway: boolean) =>
    createWorkersAI({
      accountId: settings.workersAiAccountId!,
      apiKey: settings.workersAiToken!,
      ...(gateway && settings.workersAiGateway ? { gateway: { id: settings.workersAiGateway } } : {}),
      fetch: rebaseFetch(WORKERS_AI_DEFAULT_BASE_URL, settings.workersAiBaseUrl),
    });
  const workers = configured['workers-ai']
    ? { direct: workersAi(false), gateway: workersAi(true) }
    : undefined;

  const models = new Map<string, LanguageModel>();
  const fill = (reference?: string | ModelRef): ModelRef => {
    const ref =
      reference === undefined
        ? defaultRef
        : typeof reference === 'string'
          ? parseModelRef(reference)
          : reference;
    if (!ref) throw unavailable();
    if (ref.model) return ref;
    const model = ref.provider === 'openai-compatible' ? settings.modelName : settings.workersAiModel;
    if (!model) throw unavailable(ref.provider);
    return { provider: ref.provider, model };
  };

  return {
    configured,
    defaultRef,
    describe: (reference) => {
      const ref = fill(reference);
      return `${ref.provider}:${ref.model}`;
    },
    resolve(reference, options = {}) {
      const ref = fill(reference);
      const key = `${ref.provider}:${options.useGateway ? 'gateway:' : ''}${ref.model}`;
      const cached = models.get(key);
      if (cached) return cached;
      let model: LanguageModel;
      if (ref.provider === 'openai-compatible') {
        if (!openai || !openaiPlain) throw unavailable(ref.provider);
        model = openai.chatModel(ref.model);
        registerPlainCompletion(model, openaiPlain(ref.model));
      } else {
        if (!workers) throw unavailable(ref.provider);
        model = (options.useGateway ? workers.gateway : workers.direct)(ref.model);
      }
      // Building a model object is not free (it compiles its response schemas); clients may name any
      // model id, so the cache is bounded.
      if (models.size >= MODEL_CACHE_SIZE) models.clear();
      models.set(key, model);
      return model;
    },
  };
}

function unavailable(provider?: ModelProvider) {
  return aiErrors.ai_unavailable(
    provider
      ? `The ${provider} model is not configured: set ${SETTINGS_TO_SET[provider]}.`
      : `No AI model is configured: set ${SETTINGS_TO_SET['openai-compatible']} (an OpenAI-compatible model), or ${SETTINGS_TO_SET['workers-ai']} (Workers AI).`,
  );
}

/** A fetch that sends requests for `from…` to `to…` instead (a self-hosted or test Workers AI endpoint). */
function rebaseFetch(from: string, to: string): typeof fetch {
  if (from === to) return fetch;
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const target = url.startsWith(from) ? to + url.slice(from.length) : url;
    return fetch(target, init);
  };
}
