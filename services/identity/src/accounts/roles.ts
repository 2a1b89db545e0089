/**
 * @module accounts/roles
 * Membership roles and the permissions each grants. Other services read the
 * permissions from the session (`memberships[].permissions`), never the role names.
 */

export const ROLES = ['admin', 'reviewer', 'support', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS: Record<Role, readonly string[]> = {
  admin: [
    'org:manage',
    'members:manage',
    'service-clients:manage',
    'review:decide',
    'did:issue',
    'tickets:read',
  ],
  reviewer: ['review:decide'],
  /** Reads the organization's support tickets opened through the agent. */
  support: ['tickets:read'],
  member: [],
};

export function permissionsOf(role: string): string[] {
  return [...(PERMISSIONS[role as Role] ?? [])];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
