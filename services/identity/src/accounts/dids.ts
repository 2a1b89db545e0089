/**
 * @module accounts/dids
 * did:web identifiers of the service, its organizations and users. The host part is
 * the identity service's public host, with a port percent-encoded (`localhost%3A4001`).
 */

export function identityDidHost(identityUrl: string): string {
  const url = new URL(identityUrl);
  return url.port ? `${url.hostname}%3A${url.port}` : url.hostname;
}

export const serviceDid = (identityUrl: string) => `did:web:${identityDidHost(identityUrl)}`;
export const organizationDid = (identityUrl: string, orgId: string) =>
  `${serviceDid(identityUrl)}:o:${orgId}`;
export const userDid = (identityUrl: string, userId: string) => `${serviceDid(identityUrl)}:u:${userId}`;
