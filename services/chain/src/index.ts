/**
 * @module @xv/chain
 * The chain relayer service, and what its clients need: the shared credential.
 */
export { RELAYER_TOKEN_FILE, relayerToken } from './credential.js';
export { batchTree, verifyInclusion } from './relayer/merkle.js';
export { ANVIL_CHAIN_ID, ANVIL_DEV_PRIVATE_KEY } from './relayer/wallet.js';
export { chainService } from './service.js';
