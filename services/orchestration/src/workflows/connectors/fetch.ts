/**
 * @module workflows/connectors/fetch
 * The HTTP call every network connector makes: no redirects followed (a redirect
 * could leave the allowed hosts), a capped response size, and a status mapped to
 * "retry" (5xx, 408, 429, network errors) or "give up" (other 4xx).
 */
import { StepError } from './connector.js';

export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface HttpAnswer {
  status: number;
  body: unknown;
}

export async function callHttp(
  what: string,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: unknown; signal: AbortSignal },
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined && init.method !== 'GET' && init.method !== 'HEAD') {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    if (typeof init.body !== 'string') headers['content-type'] ??= 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers,
      body,
      redirect: 'manual',
      signal: init.signal,
    });
  } catch (error) {
    if (init.signal.aborted) throw init.signal.reason ?? error;
    throw new StepError(`${what} could not be reached.`, true);
  }
  const text = await readCapped(response, what);
  const parsed = parseBody(text, response.headers.get('content-type'));
  if (response.status >= 200 && response.status < 300) return { status: response.status, body: parsed };
  const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
  throw new StepError(`${what} answered with HTTP ${response.status}.`, retryable);
}

async function readCapped(response: Response, what: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new StepError(`${what} answered with more than ${MAX_RESPONSE_BYTES} bytes.`, false);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string, contentType: string | null): unknown {
  if (!contentType?.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
