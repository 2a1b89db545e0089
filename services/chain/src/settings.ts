/**
 * @module settings
 * The relayer's own settings: which EVM node, which key, how many confirmations,
 * when a transaction counts as stuck, how public anchors are batched, and the balance
 * below which it sends nothing, and where the EAS contracts are.
 */
import { httpUrl, setting, z } from '@xv/platform';

const address = () => z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits');

export const chainSettings = {
  rpcUrl: setting('XV_CHAIN_RPC_URL', httpUrl().default('http://127.0.0.1:8545')),
  privateKey: setting(
    'XV_CHAIN_PRIVATE_KEY',
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex digits')
      .optional(),
    { secret: true },
  ),
  token: setting('XV_CHAIN_TOKEN', z.string().min(24, 'must be at least 24 characters').optional(), {
    secret: true,
  }),
  confirmations: setting('XV_CHAIN_CONFIRMATIONS', z.coerce.number().int().min(1).max(1000).default(1)),
  pollMs: setting('XV_CHAIN_POLL_MS', z.coerce.number().int().min(50).max(600_000).default(1000)),
  stuckSeconds: setting('XV_CHAIN_STUCK_SECONDS', z.coerce.number().int().min(1).max(86_400).default(30)),
  feeBumpPercent: setting('XV_CHAIN_FEE_BUMP_PERCENT', z.coerce.number().int().min(10).max(500).default(25)),
  /**
   * The EAS contract on a chain other than the local dev chain (where the relayer deploys
   * its own); its SchemaRegistry is the one it names.
   */
  easAddress: setting('XV_CHAIN_EAS_ADDRESS', address().optional()),
  /** When set, must be the registry the EAS contract names: a guard against a wrong address. */
  schemaRegistryAddress: setting('XV_CHAIN_SCHEMA_REGISTRY_ADDRESS', address().optional()),
  explorerUrl: setting('XV_CHAIN_EXPLORER_URL', httpUrl().optional()),
  /** How often the queue of batched fingerprints is anchored as one Merkle root. */
  batchIntervalMs: setting(
    'XV_CHAIN_BATCH_INTERVAL_MS',
    z.coerce.number().int().min(50).max(3_600_000).default(2000),
  ),
  /** A batch is sent at once when this many fingerprints wait (and holds at most this many). */
  batchMax: setting('XV_CHAIN_BATCH_MAX', z.coerce.number().int().min(1).max(4096).default(512)),
  /** Below this balance (wei) the relayer signs no new transaction; 0.001 ETH by default. */
  minBalanceWei: setting(
    'XV_CHAIN_MIN_BALANCE_WEI',
    z
      .string()
      .regex(/^[0-9]{1,40}$/, 'must be a whole number of wei')
      .default('1000000000000000')
      .transform((value) => BigInt(value)),
  ),
};
