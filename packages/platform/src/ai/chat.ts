/**
 * @module ai/chat
 * Calling a model: `streamChat` (events as they arrive, for streamed answers) and
 * `generateChat` (the whole answer), both with tools, a bounded tool loop
 * (`stopWhen: stepCountIs(5)` by default), an AbortSignal and a total timeout.
 * Retries are off by default: a caller that falls back to another model decides
 * itself. Failures become `ChatFailure`s with a sentence safe to show a user.
 * A plain `generateChat` turn (text only, no tools, no retries) on a catalog's
 * OpenAI-compatible model skips the SDK: see ./completion.ts.
 */
import {
  APICallError,
  type FinishReason,
  generateText,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  streamText,
  type ToolSet,
} from 'ai';
import { type ChatUsage, type PlainMessage, plainCompletionOf } from './completion.js';

export type { ChatUsage } from './completion.js';

export const DEFAULT_MAX_STEPS = 5;

export interface ChatOptions {
  model: LanguageModel;
  system?: string;
  messages: ModelMessage[];
  tools?: ToolSet;
  /** Most model calls in one turn, tool steps included (default 5). */
  maxSteps?: number;
  abortSignal?: AbortSignal;
  /** Total time for the whole turn, every step included. */
  timeoutMs?: number;
  maxRetries?: number;
  maxOutputTokens?: number;
  temperature?: number;
}

/** What a streamed turn reports, in order. */
export type ChatEvent =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; toolName: string; input: unknown }
  | { type: 'tool-result'; toolName: string; output: unknown }
  | { type: 'tool-error'; toolName: string; error: string }
  | { type: 'finish'; text: string; steps: number; finishReason: string; toolNames: string[] }
  | { type: 'error'; failure: ChatFailure };

/** A model call that failed; `message` is safe to show (no URLs, keys or bodies). */
export class ChatFailure extends Error {
  override name = 'ChatFailure';
  constructor(
    message: string,
    readonly kind: 'aborted' | 'timeout' | 'http' | 'network' | 'other',
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The caller's signal and the turn's own deadline in one signal, so a stop can say
 * which of the two it was. A plain timer that is cleared when the turn ends (an
 * `AbortSignal.timeout` would keep the turn's objects alive until it fires).
 */
function turnSignal(options: ChatOptions) {
  const controller = new AbortController();
  const caller = options.abortSignal;
  const stop = () => controller.abort(caller?.reason);
  if (caller?.aborted) stop();
  else caller?.addEventListener('abort', stop, { once: true });
  let timedOut = false;
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException('The model did not answer in time.', 'TimeoutError'));
      }, options.timeoutMs)
    : undefined;
  timer?.unref();
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', stop);
    },
  };
}

function callSettings(options: ChatOptions, signal: AbortSignal) {
  return {
    model: options.model,
    ...(options.system ? { system: options.system } : {}),
    messages: options.messages,
    ...(options.tools ? { tools: options.tools } : {}),
    stopWhen: stepCountIs(options.maxSteps ?? DEFAULT_MAX_STEPS),
    maxRetries: options.maxRetries ?? 0,
    abortSignal: signal,
    ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  };
}

/** Streams one turn. Never throws: a failure is the last event (`error`). */
export async function* streamChat(options: ChatOptions): AsyncGenerator<ChatEvent> {
  let failure: unknown;
  const turn = turnSignal(options);
  const result = streamText({
    ...callSettings(options, turn.signal),
    onError: ({ error }) => {
      failure ??= error;
    },
  });
  let text = '';
  let steps = 0;
  const toolNames: string[] = [];
  try {
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (part.text) {
            text += part.text;
            yield { type: 'text', text: part.text };
          }
          break;
        case 'tool-call':
          toolNames.push(part.toolName);
          yield { type: 'tool-call', toolName: part.toolName, input: part.input };
          break;
        case 'tool-result':
          yield { type: 'tool-result', toolName: part.toolName, output: part.output };
          break;
        case 'tool-error':
          yield { type: 'tool-error', toolName: part.toolName, error: errorText(part.error) };
          break;
        case 'finish-step':
          steps += 1;
          break;
        case 'error':
          failure ??= part.error;
          break;
        case 'abort':
          failure ??= new Error('aborted');
          break;
        case 'finish':
          if (!failure) {
            yield { type: 'finish', text, steps, finishReason: part.finishReason, toolNames };
            return;
          }
          break;
      }
    }
  } catch (error) {
    failure ??= error;
  } finally {
    turn.dispose();
  }
  yield {
    type: 'error',
    failure: toChatFailure(failure ?? new Error('The model stream ended early.'), turn.timedOut()),
  };
}

export interface ChatResult {
  text: string;
  steps: number;
  finishReason: FinishReason;
  toolNames: string[];
  usage: ChatUsage;
}

/** Generates one whole turn; throws a `ChatFailure`. */
export async function generateChat(options: ChatOptions): Promise<ChatResult> {
  const turn = turnSignal(options);
  try {
    const plain = plainCompletionOf(options.model);
    const messages = plain && plainMessages(options);
    if (plain && messages) {
      const { maxOutputTokens, temperature } = options;
      const answer = await plain({ messages, maxOutputTokens, temperature, signal: turn.signal });
      return { ...answer, steps: 1, toolNames: [] };
    }
    const result = await generateText(callSettings(options, turn.signal));
    const { inputTokens, outputTokens, totalTokens } = result.totalUsage;
    return {
      text: result.text,
      steps: result.steps.length,
      finishReason: result.finishReason,
      toolNames: result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)),
      usage: { inputTokens, outputTokens, totalTokens },
    };
  } catch (error) {
    throw toChatFailure(error, turn.timedOut());
  } finally {
    turn.dispose();
  }
}

/**
 * The turn as OpenAI chat messages when it is plain: text messages only, no tools,
 * no retries (the SDK does those). Anything else, undefined.
 */
function plainMessages(options: ChatOptions): PlainMessage[] | undefined {
  if ((options.tools && Object.keys(options.tools).length > 0) || (options.maxRetries ?? 0) > 0) return;
  const messages: PlainMessage[] = options.system ? [{ role: 'system', content: options.system }] : [];
  for (const message of options.messages) {
    const { role, content } = message;
    if (typeof content !== 'string' || (role !== 'system' && role !== 'user' && role !== 'assistant')) return;
    messages.push({ role, content });
  }
  return messages.length > 0 ? messages : undefined;
}

/** Maps whatever a model call threw to a `ChatFailure`; `timedOut` tells a timeout from a stop. */
export function toChatFailure(error: unknown, timedOut = false): ChatFailure {
  if (error instanceof ChatFailure) return error;
  const name = error instanceof Error ? error.name : '';
  if (timedOut || name === 'TimeoutError')
    return new ChatFailure('The model did not answer in time.', 'timeout');
  if (name === 'AbortError' || errorText(error) === 'aborted')
    return new ChatFailure('The answer was stopped.', 'aborted');
  const apiError = APICallError.isInstance(error)
    ? error
    : error instanceof Error && APICallError.isInstance(error.cause)
      ? error.cause
      : undefined;
  // A successful status with an answer that is not a chat completion.
  if (apiError?.statusCode && apiError.statusCode < 300)
    return new ChatFailure('The model sent an answer that could not be read.', 'other');
  if (apiError?.statusCode)
    return new ChatFailure(
      `The model answered with HTTP ${apiError.statusCode}.`,
      'http',
      apiError.statusCode,
    );
  if (apiError) return new ChatFailure('The model could not be reached.', 'network');
  return new ChatFailure('The model stopped answering.', 'other');
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
