/**
 * The trust service's test stack: a throw-away anvil chain, the chain relayer on it,
 * optionally the real identity service, and the trust service pointed at them.
 */
import { type DevChain, startDevChain, startRelayer, TEST_RELAYER_TOKEN } from '@xv/chain/testing';
import { signUp, startIdentity } from '@xv/identity/testing';
import type { Database } from '@xv/platform';
import { type DatabaseTarget, type RunningService, startService } from '@xv/platform/testing';
import { trustService } from '@xv/trust';

export interface TrustStack {
  chain: DevChain;
  relayer: RunningService;
  identity: RunningService | undefined;
  identityDatabase: Database<IdentityOrganizations> | undefined;
  trust: RunningService;
  trustDatabase: Database;
  /**
   * Starts another trust service (other settings) on the same chain, relayer and identity;
   * on a fresh database unless one is given (e.g. `trustDatabase`, for a second instance).
   */
  startTrust(env?: Record<string, string>, database?: Database): Promise<RunningService>;
}

export async function startTrustStack(
  target: DatabaseTarget,
  options: { demo?: boolean; identity?: boolean; env?: Record<string, string> } = {},
): Promise<TrustStack> {
  const chain = await startDevChain();
  const relayer = await startRelayer(await target.open('chain'), { rpcUrl: chain.rpcUrl });
  const identityDatabase = options.identity
    ? await target.open<IdentityOrganizations>('identity')
    : undefined;
  const identity = identityDatabase ? await startIdentity(identityDatabase) : undefined;
  const startTrust = async (env: Record<string, string> = {}, database?: Database) =>
    startService(trustService, {
      database: database ?? (await target.open('trust')),
      env: {
        XV_TRUST_DEMO: options.demo ? '1' : '0',
        XV_CHAIN_URL: relayer.url,
        XV_CHAIN_TOKEN: TEST_RELAYER_TOKEN,
        XV_CHAIN_RPC_URL: chain.rpcUrl,
        XV_IDENTITY_URL: identity?.url ?? 'http://127.0.0.1:9',
        ...env,
      },
    }) as Promise<RunningService>;
  const trustDatabase = await target.open('trust');
  const trust = await startTrust(options.env, trustDatabase);
  return {
    chain,
    relayer,
    identity,
    identityDatabase,
    trust,
    trustDatabase,
    startTrust,
  };
}

export const postJson = (
  service: RunningService,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  service.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

export { eventually } from '@xv/platform/testing';

/** The password of every person `newOrganization` registers. */
export const PASSWORD = 'correct horse battery';

let people = 0;
/** A new person with a new organization, signed in (AAL1). */
export async function newOrganization(stack: TrustStack, orgName = 'Acme Analytics') {
  const n = ++people;
  const signed = await signUp(stack.identity!.url, {
    email: `owner${n}-${Date.now()}@acme.test`,
    password: PASSWORD,
    name: `Owner ${n}`,
    orgName,
  });
  return { ...signed, orgId: signed.session.memberships[0]!.org_id };
}

/** Marks an organization KYC-verified (identity has no public API for that yet). */
export async function markVerified(stack: TrustStack, orgId: string) {
  await stack
    .identityDatabase!.kysely.updateTable('organizations')
    .set({ verified: 1, verified_at: Date.now() })
    .where('id', '=', orgId)
    .execute();
}

interface IdentityOrganizations {
  organizations: { id: string; verified: number; verified_at: number | null };
}

/** A key set entry as `GET /api/keys/jwks` publishes it. */
export interface PublishedKey {
  kid: string;
  keyId: string;
  did: string;
  jwk: JsonWebKey & { x: string; y: string };
  ethAddress: string;
  status: 'active' | 'retired';
  retiredAt: string | null;
}
