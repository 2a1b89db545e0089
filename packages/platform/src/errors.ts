/**
 * @module http/errors
 * The one error type of the platform. Every JSON error leaves a service as
 * `{"ok":false,"error":"<code>","message":"<one sentence>"}` (plus optional extra
 * fields). Each service names its codes once with `defineErrors`, and every code
 * joins one catalogue (`errorCatalogue()`, rendered as `docs/errors.md`): a code
 * means one thing with one status across the platform, so defining a known code
 * with another status fails at load time.
 */

/** The HTTP statuses an error may carry (any 4xx or 5xx with a body). */
export type ErrorStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 406
  | 407
  | 408
  | 409
  | 410
  | 411
  | 412
  | 413
  | 414
  | 415
  | 416
  | 417
  | 418
  | 421
  | 422
  | 423
  | 424
  | 425
  | 426
  | 428
  | 429
  | 431
  | 451
  | 500
  | 501
  | 502
  | 503
  | 504
  | 505
  | 506
  | 507
  | 508
  | 510
  | 511;

export function isErrorStatus(status: number): status is ErrorStatus {
  return status >= 400 && status <= 511 && status !== 419 && status !== 420 && status !== 427;
}

/**
 * Stops stack traces from being captured until the returned function is called:
 * for errors that are a verdict on the caller's input (a 4xx, a forged token)
 * rather than a fault, so nobody reads their stack. Capturing one costs 12–50 µs
 * (deep async stacks, more with source maps), on every rejected request.
 */
export function suspendStackTraces(): () => void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}

export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly code: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: ErrorStatus,
    code: string,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    // A 4xx answers the request; only a 5xx may need its stack to be understood.
    const restore = status < 500 ? suspendStackTraces() : () => {};
    super(message);
    restore();
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }

  toJSON() {
    return { ...this.extra, ok: false as const, error: this.code, message: this.message };
  }
}

export interface ErrorDefinition {
  status: ErrorStatus;
  message: string;
}

export type ErrorFactory = (message?: string, extra?: Record<string, unknown>) => AppError;

/** One code of the catalogue: its status, its first default message, and who answers with it. */
export interface CatalogueEntry extends ErrorDefinition {
  code: string;
  owners: string[];
}

const catalogue = new Map<string, CatalogueEntry>();

/** Every error code defined so far, sorted by code. */
export function errorCatalogue(): CatalogueEntry[] {
  return [...catalogue.values()].sort((a, b) => a.code.localeCompare(b.code));
}

/**
 * Names an owner's error codes once (`owner` is a service or a platform module);
 * each becomes a factory with a default message.
 */
export function defineErrors<const T extends Record<string, ErrorDefinition>>(owner: string, definitions: T) {
  const factories = {} as { [K in keyof T]: ErrorFactory };
  for (const [code, { status, message }] of Object.entries(definitions)) {
    const known = catalogue.get(code);
    if (known && known.status !== status)
      throw new Error(
        `Error code ${code} is ${known.status} in ${known.owners.join(', ')}; ${owner} gives ${status}`,
      );
    if (known) {
      if (!known.owners.includes(owner)) known.owners.push(owner);
    } else catalogue.set(code, { code, status, message, owners: [owner] });
    factories[code as keyof T] = (override, extra) => new AppError(status, code, override ?? message, extra);
  }
  return factories;
}

/** Codes the platform itself answers with, for every service. */
export const platformErrors = defineErrors('platform', {
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_request: {
    status: 400,
    message: 'The request is missing a field or has a field of the wrong type.',
  },
  unauthenticated: { status: 401, message: 'Sign in or send a valid bearer token.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  forbidden_origin: { status: 403, message: 'Cross-site requests are not allowed here.' },
  bad_request: { status: 400, message: 'The request cannot be served as sent.' },
  not_found: { status: 404, message: 'Nothing was found at this address.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed here.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Send the body as application/json.' },
  rate_limited: { status: 429, message: 'Too many requests; try again later.' },
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
  unavailable: { status: 503, message: 'A service this request depends on is unavailable.' },
});

/**
 * Codes of the access checks: the guard (`http/guard.ts`) answers with them, and so
 * does domain code that refuses the same thing (a person outside the organization).
 */
export const guardErrors = defineErrors('platform', {
  invalid_token: { status: 401, message: 'The bearer token is not valid.' },
  insufficient_scope: { status: 403, message: 'The token does not carry the scope this needs.' },
  wrong_organization: { status: 403, message: 'The token is not valid for that organization.' },
  not_a_member: { status: 403, message: 'You are not a member of that organization.' },
  missing_permission: { status: 403, message: 'Your role in the organization does not allow this.' },
});
