/**
 * @module ai/chat
 * Calling a model: `streamChat` (events as they arrive, for streamed answers) and
 * `generateChat` (the whole answer), both with tools, a bounded tool loop
 * (`stopWhen: stepCountIs(5)` by default), an AbortSignal and a total timeout.
 * Retries are off by default: a caller that falls back to another model decides
 * itself. Failures become `ChatFailure`s with a sentence safe to show a user.
 */
import {
  APICallError,
  generateText,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  streamText,
  type ToolSet,
} from 'ai';

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

/** The caller's signal and the turn's own deadline, so a stop can say which of the two it was. */
function signalsOf(options: ChatOptions) {
  const deadline = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
  const signals = [options.abortSignal, deadline].filter((s): s is AbortSignal => s !== undefined);
  const combined = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  return { deadline, combined };
}

function callSettings(options: ChatOptions, signal: AbortSignal | undefined) {
  return {
    model: options.model,
    ...(options.system ? { system: options.system } : {}),
    messages: options.messages,
    ...(options.tools ? { tools: options.tools } : {}),
    stopWhen: stepCountIs(options.maxSteps ?? DEFAULT_MAX_STEPS),
    maxRetries: options.maxRetries ?? 0,
    ...(signal ? { abortSignal: signal } : {}),
    ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  };
}

/** Streams one turn. Never throws: a failure is the last event (`error`). */
export async function* streamChat(options: ChatOptions): AsyncGenerator<ChatEvent> {
  let failure: unknown;
  const { deadline, combined } = signalsOf(options);
  const result = streamText({
    ...callSettings(options, combined),
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
  }
  yield {
    type: 'error',
    failure: toChatFailure(failure ?? new Error('The model stream ended early.'), deadline),
  };
}

/** Generates one whole turn; throws a `ChatFailure`. */
export async function generateChat(options: ChatOptions) {
  const { deadline, combined } = signalsOf(options);
  try {
    const result = await generateText(callSettings(options, combined));
    return {
      text: result.text,
      steps: result.steps.length,
      finishReason: result.finishReason,
      toolNames: result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)),
      usage: result.totalUsage,
    };
  } catch (error) {
    throw toChatFailure(error, deadline);
  }
}

/** Maps whatever a model call threw to a `ChatFailure`; `deadline` tells a timeout from a stop. */
export function toChatFailure(error: unknown, deadline?: AbortSignal): ChatFailure {
  if (error instanceof ChatFailure) return error;
  const name = error instanceof Error ? error.name : '';
  if (deadline?.aborted || name === 'TimeoutError')
    return new ChatFailure('The model did not answer in time.', 'timeout');
  if (name === 'AbortError' || errorText(error) === 'aborted')
    return new ChatFailure('The answer was stopped.', 'aborted');
  const apiError = APICallError.isInstance(error)
    ? error
    : error instanceof Error && APICallError.isInstance(error.cause)
      ? error.cause
      : undefined;
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
