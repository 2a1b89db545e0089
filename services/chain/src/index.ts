/**
 * @module @xv/chain
 * The chain relayer service, and what its clients need: the shared credential and the
 * dev chain EAS addresses.
 */
export { DEV_EAS_ADDRESS, DEV_EAS_DEPLOYER, DEV_SCHEMA_REGISTRY_ADDRESS } from './eas/contracts.js';
export { registrySchemaUid } from './eas/gateway.js';
export { batchTree } from './relayer/merkle.js';
export type { ChainTables } from './relayer/tables.js';
export { ANVIL_CHAIN_ID, ANVIL_DEV_PRIVATE_KEY } from './relayer/wallet.js';
export { chainService } from './service.js';
