/**
 * @module ai/settings
 * The model settings every AI-using service shares. Spread `modelSettingsSpec`
 * into a service's own `settings` and pass the loaded values to
 * `createModelCatalog`. Keys and tokens are secrets: kept server-side, never
 * echoed (not even in settings errors).
 */
import { z } from 'zod';
import { httpUrl, type Settings, seconds, setting } from '../settings/settings.js';

export const WORKERS_AI_DEFAULT_BASE_URL = 'https://api.cloudflare.com/client/v4';
export const WORKERS_AI_DEFAULT_MODEL = '@cf/meta/llama-3.1-8b-instruct';

const text = () => z.string().trim().min(1);

export const modelSettingsSpec = {
  /** OpenAI-compatible endpoint, e.g. `https://api.openai.com/v1`. */
  modelBaseUrl: setting('MODEL_BASE_URL', httpUrl().optional()),
  /** The OpenAI-compatible model used when a request names none. */
  modelName: setting('MODEL_NAME', text().optional()),
  modelApiKey: setting('MODEL_API_KEY', text().optional(), { secret: true }),
  workersAiAccountId: setting('XV_WORKERS_AI_ACCOUNT_ID', text().optional()),
  workersAiToken: setting('XV_WORKERS_AI_TOKEN', text().optional(), { secret: true }),
  /** The Workers AI REST API root; tests point it at the scripted model server. */
  workersAiBaseUrl: setting('XV_WORKERS_AI_BASE_URL', httpUrl().default(WORKERS_AI_DEFAULT_BASE_URL)),
  workersAiModel: setting('XV_WORKERS_AI_MODEL', text().default(WORKERS_AI_DEFAULT_MODEL)),
  /** An AI Gateway id, used when a route asks for `useGateway`. */
  workersAiGateway: setting('XV_WORKERS_AI_GATEWAY', text().optional()),
  /** Longest a whole model call (all tool steps) may take. */
  modelTimeoutSeconds: setting('XV_MODEL_TIMEOUT_SECONDS', seconds(60)),
};

export type ModelSettings = Settings<typeof modelSettingsSpec>;
