/**
 * @module credential
 * The service credential with which the trust service calls the relayer: the
 * `XV_CHAIN_TOKEN` setting, or on the embedded default a token generated once into
 * `<XV_DATA_DIR>/chain-token` (mode 0600) that both services read.
 */
import { join } from 'node:path';
import { newSecretToken, readOrCreateSecretFile } from '@xv/platform';

export const RELAYER_TOKEN_FILE = 'chain-token';

export function relayerToken(configured: string | undefined, dataDir: string): string {
  return configured ?? readOrCreateSecretFile(join(dataDir, RELAYER_TOKEN_FILE), () => newSecretToken('xvc'));
}
