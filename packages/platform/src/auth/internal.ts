/**
 * @module auth/internal
 * The internal credential: a secret every XV service shares, with which services ask
 * identity questions that are not public (is this person still a member?). It comes
 * from `XV_INTERNAL_TOKEN`, or on the embedded default is generated once into
 * `XV_DATA_DIR/internal-token` (mode 0600), which every local service reads.
 * Instances on several machines must be given the same value.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readOrCreateSecretFile } from '../secret-file.js';
import type { PlatformSettings } from '../settings/platform.js';

export const INTERNAL_TOKEN_FILE = 'internal-token';

/** The configured internal credential, else the one generated under the data folder. */
export function loadInternalToken(settings: Pick<PlatformSettings, 'internalToken' | 'dataDir'>): string {
  return (
    settings.internalToken ??
    readOrCreateSecretFile(join(settings.dataDir, INTERNAL_TOKEN_FILE), () =>
      randomBytes(32).toString('base64url'),
    )
  );
}
