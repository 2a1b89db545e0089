/**
 * @module commands/credentials
 * Operator commands of the credential issuer (identity service). Like the other
 * identity commands they open the identity database directly, with the service's
 * settings (`XV_DATA_DIR`, `DATABASE_URL` / `XV_IDENTITY_DATABASE_URL`,
 * `XV_IDENTITY_KEK`).
 *
 *   xv credentials keys         the issuer keys, newest first (active, retired)
 *   xv credentials rotate-key   a new active ES256 key; the previous one is retired
 *                               and keeps verifying what it signed. Running services
 *                               sign with the new key within 30 seconds.
 */
import { loadPlatformSettings } from '@xv/platform';
import { UsageError } from '../launcher/start.js';
import type { Env, Out } from './args.js';
import { withIdentityDatabase } from './identity.js';

const USAGE = 'usage: xv credentials keys | xv credentials rotate-key';

export async function credentialsCommand(
  args: string[],
  env: Env = process.env,
  out: Out = console.log,
): Promise<number> {
  const [action] = args;
  if (action !== 'keys' && action !== 'rotate-key') throw new UsageError(USAGE);
  const { credentialKeys } = await import('@xv/identity');
  const kek = credentialKeys.issuerKek(env, loadPlatformSettings('identity', env).dataDir);
  return withIdentityDatabase(env, async (database) => {
    const db = database.kysely as never;
    if (action === 'rotate-key') {
      const kid = await credentialKeys.rotateIssuerKeyChecked(db, kek);
      out(`issuer key ${kid} is active; the previous key is retired and still verifies what it signed`);
      return 0;
    }
    for (const key of await credentialKeys.listIssuerKeys(db))
      out(`${key.kid}\t${key.state}\t${new Date(Number(key.created_at)).toISOString()}`);
    return 0;
  });
}

export const credentialCommands = {
  credentials: {
    summary: 'issuer keys of the credential issuer: xv credentials keys | xv credentials rotate-key',
    run: (args: string[]) => credentialsCommand(args),
  },
};
