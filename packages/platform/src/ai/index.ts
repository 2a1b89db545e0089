/**
 * @module ai
 * The shared model layer: settings, model references and providers
 * (`openai-compatible`, `workers-ai`), and streamed or whole chat turns with tools.
 */
export { type LanguageModel, type ModelMessage, type ToolSet, tool, zodSchema } from 'ai';
export * from './chat.js';
export * from './models.js';
export * from './settings.js';
