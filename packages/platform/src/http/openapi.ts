/**
 * @module http/openapi
 * The pieces every route description repeats: a JSON request body, a JSON
 * response, the platform's error body (published once as the `Error` schema).
 *
 * ```ts
 * createRoute({
 *   method: 'post', path: '/api/things',
 *   request: { body: jsonBody(thingInput) },
 *   responses: { 201: jsonResponse('Created', thing), 400: jsonErrorResponse('Invalid input') },
 * });
 * ```
 */
import { z } from '@hono/zod-openapi';

export const errorBody = z
  .object({ ok: z.literal(false), error: z.string(), message: z.string() })
  .openapi('Error');

export const okBody = z.object({ ok: z.literal(true) });

export const jsonBody = <T extends z.ZodType>(schema: T, required = true) => ({
  required,
  content: { 'application/json': { schema } },
});

export const jsonResponse = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A response carrying the platform's error body. */
export const jsonErrorResponse = (description: string) => jsonResponse(description, errorBody);
