/**
 * @module @xv/chain
 * The chain relayer service, and what its clients need: the shared credential.
 */
export { batchTree } from './relayer/merkle.js';
export type { ChainTables } from './relayer/tables.js';
export { ANVIL_CHAIN_ID, ANVIL_DEV_PRIVATE_KEY } from './relayer/wallet.js';
export { chainService } from './service.js';
