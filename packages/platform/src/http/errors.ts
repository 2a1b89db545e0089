/**
 * @module http/errors
 * The one error type of the platform. Every JSON error leaves a service as
 * `{"ok":false,"error":"<code>","message":"<one sentence>"}` (plus optional extra
 * fields). Each service names its codes once with `defineErrors`.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  toJSON() {
    return { ...this.extra, ok: false as const, error: this.code, message: this.message };
  }
}

export interface ErrorDefinition {
  status: ContentfulStatusCode;
  message: string;
}

export type ErrorFactory = (message?: string, extra?: Record<string, unknown>) => AppError;

/** Names a service's error codes once; each becomes a factory with a default message. */
export function defineErrors<const T extends Record<string, ErrorDefinition>>(definitions: T) {
  const factories = {} as { [K in keyof T]: ErrorFactory };
  for (const [code, { status, message }] of Object.entries(definitions)) {
    factories[code as keyof T] = (override, extra) => new AppError(status, code, override ?? message, extra);
  }
  return factories;
}

/** Codes the platform itself answers with, for every service. */
export const platformErrors = defineErrors({
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_request: {
    status: 400,
    message: 'The request is missing a field or has a field of the wrong type.',
  },
  unauthenticated: { status: 401, message: 'Sign in or send a valid bearer token.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  forbidden_origin: { status: 403, message: 'Cross-site requests are not allowed here.' },
  not_found: { status: 404, message: 'Nothing was found at this address.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed here.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Send the body as application/json.' },
  rate_limited: { status: 429, message: 'Too many requests; try again later.' },
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
  unavailable: { status: 503, message: 'A service this request depends on is unavailable.' },
});
