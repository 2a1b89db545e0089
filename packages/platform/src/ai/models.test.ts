import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { loadSettings } from '../settings/settings.js';
import { createModelCatalog, parseModelRef } from './models.js';
import { modelSettingsSpec } from './settings.js';

const catalogOf = (env: Record<string, string>) => createModelCatalog(loadSettings(modelSettingsSpec, env));

function errorOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('model references', () => {
  it('splits provider and model id at the first colon', () => {
    expect(parseModelRef('openai-compatible:gpt-4o-mini')).toEqual({
      provider: 'openai-compatible',
      model: 'gpt-4o-mini',
    });
    expect(parseModelRef('workers-ai:@cf/meta/llama-3.1-8b-instruct:fast').model).toBe(
      '@cf/meta/llama-3.1-8b-instruct:fast',
    );
    expect(parseModelRef('workers-ai')).toEqual({ provider: 'workers-ai', model: '' });
  });

  it('rejects an unknown provider with 400 invalid_model', () => {
    const error = errorOf(() => parseModelRef('hosted:gpt'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_model');
  });
});

describe('model catalog', () => {
  it('answers 503 ai_unavailable naming the settings when nothing is configured', () => {
    const catalog = catalogOf({});
    expect(catalog.defaultRef).toBeUndefined();
    const error = errorOf(() => catalog.resolve());
    expect(error.status).toBe(503);
    expect(error.code).toBe('ai_unavailable');
    expect(error.message).toContain('MODEL_API_KEY');
    expect(error.message).toContain('XV_WORKERS_AI_TOKEN');
  });

  it('names only the missing provider settings for a reference to that provider', () => {
    const catalog = catalogOf({
      MODEL_BASE_URL: 'http://127.0.0.1:1/v1',
      MODEL_API_KEY: 'k',
      MODEL_NAME: 'm',
    });
    const error = errorOf(() => catalog.resolve('workers-ai:@cf/x'));
    expect(error.code).toBe('ai_unavailable');
    expect(error.message).toContain('XV_WORKERS_AI_ACCOUNT_ID');
    expect(error.message).not.toContain('MODEL_BASE_URL');
  });

  it('needs the API key for the OpenAI-compatible provider', () => {
    const catalog = catalogOf({ MODEL_BASE_URL: 'http://127.0.0.1:1/v1', MODEL_NAME: 'm' });
    expect(catalog.configured['openai-compatible']).toBe(false);
    expect(errorOf(() => catalog.resolve('openai-compatible:m')).message).toContain('MODEL_API_KEY');
  });

  it('prefers the OpenAI-compatible model as default, else Workers AI', () => {
    expect(catalogOf({ MODEL_BASE_URL: 'http://h/v1', MODEL_API_KEY: 'k', MODEL_NAME: 'a' }).describe()).toBe(
      'openai-compatible:a',
    );
    const workers = catalogOf({ XV_WORKERS_AI_ACCOUNT_ID: 'acc', XV_WORKERS_AI_TOKEN: 't' });
    expect(workers.describe()).toBe('workers-ai:@cf/meta/llama-3.1-8b-instruct');
    expect(workers.describe('workers-ai')).toBe('workers-ai:@cf/meta/llama-3.1-8b-instruct');
  });

  it('never puts a key in an error message', () => {
    const catalog = catalogOf({ MODEL_API_KEY: 'sk-very-secret' });
    expect(errorOf(() => catalog.resolve()).message).not.toContain('sk-very-secret');
  });
});
