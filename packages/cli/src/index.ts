export { anvilBinary, type DevChainOptions, isChainReady, spawnDevChain } from './devchain.js';
