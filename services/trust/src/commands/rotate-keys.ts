/**
 * @module commands/rotate-keys
 * Operator command: retire an organization's issuer keys and create new ones.
 * Receipts signed with the old pair keep verifying (the retired keys stay in the
 * key set, marked `retired`); new seals use the new pair at once here, and within
 * seconds in running services, which is why the old pair's `retiredAt` is set a
 * short grace after now (keys/keyring.ts: ROTATION_GRACE_MS).
 *
 *   npm run rotate-keys -w @xv/trust -- <org_id>
 *   node services/trust/dist/commands/rotate-keys.js <org_id>
 *
 * It reads the same settings as the service (`XV_DATA_DIR`, `XV_TRUST_KEK`,
 * `XV_TRUST_DATABASE_URL` / `DATABASE_URL`, `XV_IDENTITY_URL`).
 */
import { pathToFileURL } from 'node:url';
import { loadPlatformSettings, loadSettings, migrate } from '@xv/platform';
import { openServiceDatabase } from '@xv/platform/service';
import type { TrustTables } from '../db.js';
import { IssuerDirectory } from '../issuers/directory.js';
import { loadTrustKek } from '../keys/kek.js';
import { type IssuerKey, Keyring } from '../keys/keyring.js';
import { migrations } from '../migrations/index.js';
import { trustSettings } from '../settings.js';

type Env = Record<string, string | undefined>;

export async function rotateIssuerKeys(
  orgId: string,
  env: Env = process.env,
): Promise<{ retired: string | null; active: IssuerKey }> {
  const settings = loadPlatformSettings('trust', env);
  const config = loadSettings(trustSettings, env);
  const database = await openServiceDatabase<TrustTables>(settings);
  try {
    await migrate(database, migrations);
    const keyring = new Keyring(database.kysely, loadTrustKek(config.kek, settings.dataDir));
    const directory = new IssuerDirectory({
      identityUrl: settings.services.identity.url,
      trustUrl: settings.services.trust.url,
      demo: config.demo,
    });
    const issuer = await directory.require(orgId);
    return await keyring.rotate(issuer);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const orgId = process.argv[2];
  if (!orgId) {
    process.stderr.write('usage: rotate-keys <org_id>\n');
    process.exit(2);
  }
  const { retired, active } = await rotateIssuerKeys(orgId);
  process.stdout.write(
    `${orgId}: ${retired ? `retired ${retired}, ` : ''}active ${active.keyId} (eth ${active.ethAddress})\n`,
  );
}
