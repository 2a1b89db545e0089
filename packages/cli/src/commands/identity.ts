/**
 * @module commands/identity
 * Operator commands of the identity service. They open the identity database
 * directly (the same settings as the service: `XV_DATA_DIR`, `DATABASE_URL` or
 * `XV_IDENTITY_DATABASE_URL`) and bring its schema up to date first, so they work
 * whether or not the service is running, and need no operator token on the network.
 *
 *   xv realm create <id> [name]      a new realm (an isolated user population)
 *   xv realm list
 *   xv org verify <org_id>           mark an organization KYC-verified (now)
 *   xv service-client create <name> --realm <id> --scopes a,b [--org <org_id>]
 *                                    a service client; without --org it covers every
 *                                    organization of the realm. Prints the token once.
 *   xv user disable <email> [--realm <id>]
 *                                    ends every session of the user and refuses their
 *                                    sign-ins; their knowledge-base tokens stop working.
 *                                    Running services learn it within a second.
 *   xv user enable <email> [--realm <id>]
 */
import { type Database, loadPlatformSettings, migrate } from '@xv/platform';
import { openServiceDatabase } from '@xv/platform/service';
import { UsageError } from '../launcher/start.js';
import { type Env, type Out, option } from './args.js';

const REALM_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Runs `work` on the identity database, its schema brought up to date first, and closes it. */
export async function withIdentityDatabase<T>(
  env: Env,
  work: (database: Database, identity: typeof import('@xv/identity')) => Promise<T>,
) {
  // Loaded on demand: the rest of the CLI (e.g. `xv start`) does not need the identity service in memory.
  const identity = await import('@xv/identity');
  const database = await openServiceDatabase(loadPlatformSettings('identity', env));
  try {
    await migrate(database, identity.migrations);
    return await work(database, identity);
  } finally {
    await database.close();
  }
}

export async function realmCommand(
  args: string[],
  env: Env = process.env,
  out: Out = console.log,
): Promise<number> {
  const [action, id, ...nameParts] = args;
  if (action === 'list') {
    return withIdentityDatabase(env, async (database, { accounts }) => {
      for (const realm of await accounts.listRealms(database.kysely as never))
        out(`${realm.id}\t${realm.name}`);
      return 0;
    });
  }
  if (action !== 'create' || !id) throw new UsageError('usage: xv realm create <id> [name] | xv realm list');
  if (!REALM_ID.test(id))
    throw new UsageError('a realm id is lowercase letters, digits, - and _ (at most 63)');
  return withIdentityDatabase(env, async (database, { accounts }) => {
    const db = database.kysely as never;
    if (await accounts.findRealm(db, id)) {
      out(`xv: realm ${id} already exists`);
      return 1;
    }
    await accounts.createRealm(db, id, nameParts.join(' ') || id);
    out(`realm ${id} created`);
    return 0;
  });
}

export async function orgCommand(
  args: string[],
  env: Env = process.env,
  out: Out = console.log,
): Promise<number> {
  const [action, orgId] = args;
  if (action !== 'verify' || !orgId) throw new UsageError('usage: xv org verify <org_id>');
  return withIdentityDatabase(env, async (database, { accounts }) => {
    if (!(await accounts.verifyOrganization(database.kysely as never, orgId))) {
      out(`xv: no organization ${orgId}`);
      return 1;
    }
    out(`organization ${orgId} is verified`);
    return 0;
  });
}

export async function serviceClientCommand(
  args: string[],
  env: Env = process.env,
  out: Out = console.log,
): Promise<number> {
  const rest = [...args];
  const realm = option(rest, 'realm') ?? 'default';
  const scopes =
    option(rest, 'scopes')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const orgId = option(rest, 'org') ?? null;
  const [action, ...nameParts] = rest;
  const name = nameParts.join(' ');
  if (action !== 'create' || !name || scopes.length === 0)
    throw new UsageError(
      'usage: xv service-client create <name> --scopes a,b [--realm <id>] [--org <org_id>]',
    );
  return withIdentityDatabase(env, async (database, { accounts, serviceClients }) => {
    const db = database.kysely as never;
    if (!(await accounts.findRealm(db, realm))) {
      out(`xv: no realm ${realm}`);
      return 1;
    }
    const unknown = scopes.filter((scope) => !serviceClients.KNOWN_SCOPES.includes(scope));
    if (unknown.length > 0)
      throw new UsageError(
        `unknown scope ${unknown.join(', ')}; the scopes are ${serviceClients.KNOWN_SCOPES.join(', ')}`,
      );
    if (orgId) {
      const org = await accounts.findOrganization(db, orgId);
      if (!org || org.realm_id !== realm) {
        out(`xv: no organization ${orgId} in realm ${realm}`);
        return 1;
      }
    }
    const { token, client } = await serviceClients.createServiceClient(db, {
      realmId: realm,
      orgId,
      name,
      scopes,
      createdBy: null,
    });
    out(
      `service client ${client.id} (${client.org_id ?? `every organization of ${realm}`}; ${client.scopes.join(' ')})`,
    );
    out(`token (shown once): ${token}`);
    return 0;
  });
}

export async function userCommand(
  args: string[],
  env: Env = process.env,
  out: Out = console.log,
): Promise<number> {
  const rest = [...args];
  const realm = option(rest, 'realm') ?? 'default';
  const [action, email, ...extra] = rest;
  if ((action !== 'disable' && action !== 'enable') || !email || extra.length > 0)
    throw new UsageError('usage: xv user disable|enable <email> [--realm <id>]');
  const disabled = action === 'disable';
  return withIdentityDatabase(env, async (database, { accounts }) => {
    const outcome = await accounts.setUserDisabled(database as never, realm, email, disabled);
    if (outcome === 'not_found') {
      out(`xv: no user ${email} in realm ${realm}`);
      return 1;
    }
    const state = disabled ? 'disabled' : 'enabled';
    out(outcome === 'unchanged' ? `user ${email} was already ${state}` : `user ${email} is ${state}`);
    return 0;
  });
}

export const identityCommands = {
  realm: {
    summary: 'identity realms: xv realm create <id> [name] | xv realm list',
    run: (args: string[]) => realmCommand(args),
  },
  org: {
    summary: 'mark an organization KYC-verified: xv org verify <org_id>',
    run: (args: string[]) => orgCommand(args),
  },
  'service-client': {
    summary: 'xv service-client create <name> --scopes a,b [--realm <id>] [--org <org_id>]',
    run: (args: string[]) => serviceClientCommand(args),
  },
  user: {
    summary: 'disable a user everywhere, or enable them again: xv user disable|enable <email> [--realm <id>]',
    run: (args: string[]) => userCommand(args),
  },
};
