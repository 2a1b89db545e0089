/**
 * @module http/chat-stream
 * A chat turn's outputs as the `text/plain; charset=utf-8` response body. The
 * body is the answer's text. Failures after the first byte end the body with a
 * line starting `[agent error]`. With `?marks=1` (the chat page) the body also
 * carries tool marks: a record separator (U+001E), a JSON object
 * `{"tool":"<name>","ok":true|false}` and a newline, so a page can show that a
 * tool was used while the answer streams. A knowledge search's mark adds
 * `"sources":[{"docId","title"}]`, the documents it found (JSON escapes control
 * characters, so a title cannot end the line or start a mark).
 */
import type { TurnOutput } from '../chat/turn.js';

export const STREAM_ERROR_MARKER = '[agent error]';
export const TOOL_MARK = '\u001e';

/** The mark of a tool that returned; a knowledge search's cited documents go with it as `sources`. */
function toolMark(output: Extract<TurnOutput, { type: 'tool' }>) {
  const mark = { tool: output.name, ok: output.ok };
  return output.sources?.length ? { ...mark, sources: output.sources } : mark;
}

export function renderOutput(output: TurnOutput, marks: boolean): string {
  switch (output.type) {
    case 'text':
      return marks ? output.text.replaceAll(TOOL_MARK, '') : output.text;
    case 'tool':
      return marks ? `${TOOL_MARK}${JSON.stringify(toolMark(output))}\n` : '';
    case 'failed':
      return `\n\n${STREAM_ERROR_MARKER} ${output.message} Nothing of this message was saved; send it again.\n`;
    case 'done':
      return '';
  }
}

export interface StreamHooks {
  /** Longest the body may take; past it the turn is stopped and the body cut (a client that stopped reading). */
  deadlineMs: number;
  /** Runs once when the body ends, however it ends. */
  onEnd(): Promise<void>;
  /** The client went away. */
  onCancel(): void;
  onError(error: unknown): void;
}

/** Streams `outputs` (after `first`, already read) as the response body, pulled as the client reads. */
export function outputStream(
  first: IteratorResult<TurnOutput>,
  outputs: AsyncGenerator<TurnOutput>,
  marks: boolean,
  hooks: StreamHooks,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending: IteratorResult<TurnOutput> | undefined = first;
  let ended = false;
  let deadline: NodeJS.Timeout | undefined;
  const end = async () => {
    if (ended) return;
    ended = true;
    clearTimeout(deadline);
    await hooks.onEnd();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        deadline = setTimeout(() => {
          hooks.onCancel();
          void end();
          controller.error(new Error('The chat turn ran past its deadline.'));
        }, hooks.deadlineMs);
        deadline.unref();
      },
      async pull(controller) {
        try {
          for (;;) {
            const next = pending ?? (await outputs.next());
            pending = undefined;
            if (next.done) {
              await end();
              controller.close();
              return;
            }
            const text = renderOutput(next.value, marks);
            if (text) {
              controller.enqueue(encoder.encode(text));
              return;
            }
          }
        } catch (error) {
          hooks.onError(error);
          controller.enqueue(
            encoder.encode(
              renderOutput({ type: 'failed', message: 'The agent failed.', beforeOutput: false }, marks),
            ),
          );
          await end();
          controller.close();
        }
      },
      async cancel() {
        hooks.onCancel();
        await outputs.return(undefined);
        await end();
      },
    },
    { highWaterMark: 0 },
  );
}
