/**
 * @module http/openapi
 * The pieces every route description repeats: a JSON request body, a JSON
 * response, the platform's error body (published once as the `Error` schema), who
 * may call (`access`, over the security schemes every document declares) and the
 * errors an operation may answer with (`errorResponses`, from the error catalogue).
 *
 * ```ts
 * createRoute({
 *   method: 'post', path: '/api/things',
 *   security: access.sessionOrServiceToken('things:write'),
 *   request: { body: jsonBody(thingInput, { example: { name: 'Lamp' } }) },
 *   responses: {
 *     201: jsonResponse('Created', thing, { id: 'thg_1', name: 'Lamp' }),
 *     ...errorResponses(errors.thing_exists),
 *   },
 * });
 * ```
 *
 * `completeDocument` (openapi-document.ts) adds what follows from these alone: the
 * guard's 401/403 for a secured operation, 400 for one with input, 413 for one with
 * a body, and an example derived from the schema wherever a route gives none.
 */
import { z } from '@hono/zod-openapi';
import type { AppError, ErrorFactory } from '../errors.js';

export const errorBody = z
  .object({
    ok: z.literal(false),
    error: z.string().openapi({ description: 'The error code (docs/errors.md)' }),
    message: z.string().openapi({ description: 'One sentence for a person' }),
  })
  .catchall(z.unknown())
  .openapi('Error', {
    description:
      'Every JSON error of the platform. Some codes add fields: `issues` (invalid_request), `retryAfter` (rate_limited).',
    example: { ok: false, error: 'not_found', message: 'Nothing was found at this address.' },
  });

export const okBody = z.object({ ok: z.literal(true) }).openapi({ example: { ok: true } });

/**
 * The ways of proving who calls, declared once in every service's document. A
 * session is the SSO cookie identity sets at sign-in; the three bearer tokens are
 * told apart by who issues them.
 */
export const securitySchemes = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'xv_session',
    description:
      'The SSO session identity sets at sign-in, valid on every service under the shared domain. A form or JSON write from a browser must also come from an allowed origin.',
  },
  personalAccessToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'xkb_…',
    description:
      'A personal access token of the knowledge base (`Authorization: Bearer xkb_…`), made on its token page; it acts for its owner in one organization, within its scopes (`sync`, `ai:read`).',
  },
  serviceToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A service client token from identity (`Authorization: Bearer …`): a machine acting for one organization, or every organization of its realm, within its scopes.',
  },
  relayerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The relayer credential of the chain service (`XV_CHAIN_TOKEN`), held by the services that anchor.',
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator token of a service (for leads, `XV_ORCH_ADMIN_TOKEN`), for the people who run it.',
  },
} as const;

export type SecuritySchemeName = keyof typeof securitySchemes;
type SecurityRequirement = Partial<Record<SecuritySchemeName, string[]>>;

/**
 * OpenAPI `security` values: each entry of the list is one accepted way in; scopes
 * name what a token must carry.
 */
export const access = {
  /** Anyone: no credential is read. */
  public: [] as SecurityRequirement[],
  session: [{ session: [] }] as SecurityRequirement[],
  /** A signed-in person acts as themselves; anyone else is served too, as an anonymous visitor. */
  sessionOrAnonymous: [{ session: [] }, {}] as SecurityRequirement[],
  personalToken: (scope: string): SecurityRequirement[] => [{ personalAccessToken: [scope] }],
  sessionOrPersonalToken: (scope: string): SecurityRequirement[] => [
    { session: [] },
    { personalAccessToken: [scope] },
  ],
  serviceToken: (scope: string): SecurityRequirement[] => [{ serviceToken: [scope] }],
  sessionOrServiceToken: (scope: string): SecurityRequirement[] => [
    { session: [] },
    { serviceToken: [scope] },
  ],
  relayer: [{ relayerToken: [] }] as SecurityRequirement[],
  operator: [{ operatorToken: [] }] as SecurityRequirement[],
};

export const jsonBody = <T extends z.ZodType>(
  schema: T,
  options: { required?: boolean; example?: z.input<T> } = {},
) => ({
  required: options.required ?? true,
  content: {
    'application/json': { schema, ...(options.example === undefined ? {} : { example: options.example }) },
  },
});

export const jsonResponse = <T extends z.ZodType>(description: string, schema: T, example?: z.output<T>) => ({
  description,
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

type ErrorEntry = ErrorFactory | readonly [ErrorFactory, string];

/** A response carrying the platform's error body; `errors` become its examples. */
export function jsonErrorResponse(description: string, ...errors: ErrorEntry[]) {
  if (errors.length === 0) return jsonResponse(description, errorBody);
  const examples = Object.fromEntries(
    errors.map((entry) => {
      const error = typeof entry === 'function' ? entry() : entry[0](entry[1]);
      return [error.code, { summary: error.message, value: error.toJSON() }];
    }),
  );
  return { description, content: { 'application/json': { schema: errorBody, examples } } };
}

interface ErrorResponse {
  description: string;
  content: {
    'application/json': {
      schema: typeof errorBody;
      examples: Record<string, { summary: string; value: ReturnType<AppError['toJSON']> }>;
    };
  };
}

/**
 * The responses for the errors an operation may answer with, grouped by status,
 * each code an example with its default message: `...errorResponses(errors.x, errors.y)`.
 * `message` overrides a default that does not fit the route.
 */
export function errorResponses(...factories: ErrorEntry[]) {
  const responses: Record<number, ErrorResponse> = {};
  for (const entry of factories) {
    const error = typeof entry === 'function' ? entry() : entry[0](entry[1]);
    const response = responses[error.status] ?? {
      description: '',
      content: { 'application/json': { schema: errorBody, examples: {} } },
    };
    responses[error.status] = response;
    response.content['application/json'].examples[error.code] = {
      summary: error.message,
      value: error.toJSON(),
    };
    const codes = Object.keys(response.content['application/json'].examples);
    response.description = codes.map((code) => `\`${code}\``).join(', ');
  }
  return responses;
}
