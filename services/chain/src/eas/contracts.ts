/**
 * @module eas/contracts
 * The Ethereum Attestation Service contracts as compiled and published in
 * `@ethereum-attestation-service/eas-contracts` (ABI and creation bytecode), and the
 * dev chain's deterministic deployment of them.
 */
import { createRequire } from 'node:module';
import { type Abi, getContractAddress, type Hex, keccak256, stringToHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

const require = createRequire(import.meta.url);
const artifact = (name: 'EAS' | 'SchemaRegistry'): Artifact =>
  require(`@ethereum-attestation-service/eas-contracts/artifacts/contracts/${name}.sol/${name}.json`);

export const easArtifact = artifact('EAS');
export const schemaRegistryArtifact = artifact('SchemaRegistry');

/**
 * The dev chain's EAS deployer: a key of its own, used for nothing else, so its first two
 * transactions (nonces 0 and 1) always create the registry and EAS at the same addresses.
 * Public knowledge, like anvil's own accounts: it exists only on the local dev chain.
 */
export const DEV_EAS_DEPLOYER_KEY: Hex = keccak256(stringToHex('xv dev chain: EAS deployer'));
export const DEV_EAS_DEPLOYER = privateKeyToAccount(DEV_EAS_DEPLOYER_KEY);
export const DEV_SCHEMA_REGISTRY_ADDRESS = getContractAddress({ from: DEV_EAS_DEPLOYER.address, nonce: 0n });
export const DEV_EAS_ADDRESS = getContractAddress({ from: DEV_EAS_DEPLOYER.address, nonce: 1n });
