/**
 * @module schemas
 * JSON shapes shared by several identity routes (and published in `/openapi.json`).
 */
import { z } from '@xv/platform';

export const errorBody = z
  .object({ ok: z.literal(false), error: z.string(), message: z.string() })
  .openapi('Error');

export const okBody = z.object({ ok: z.literal(true) });

export const membershipSchema = z.object({
  org_id: z.string(),
  org_name: z.string(),
  role: z.string(),
  permissions: z.array(z.string()),
});

export const sessionSchema = z
  .object({
    authenticated: z.literal(true),
    realmId: z.string(),
    user: z.object({ id: z.string(), email: z.string(), name: z.string(), avatar_color: z.string() }),
    memberships: z.array(membershipSchema),
    amr: z.array(z.string()),
    aal: z.enum(['AAL1', 'AAL2', 'AAL3']),
  })
  .openapi('Session');

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

export const jsonResponse = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { 'application/json': { schema } },
});
