/**
 * @module http/schemas
 * JSON shapes of identity's own that several routes share (and `/openapi.json` publishes).
 * The request and error helpers are the platform's (`@xv/platform/http`).
 */
import { z } from '@xv/platform/http';

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
