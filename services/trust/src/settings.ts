/**
 * @module settings
 * The trust service's own settings.
 */
import { availableParallelism } from 'node:os';
import { flag, httpUrl, keyEncryptionKeySetting, setting, z } from '@xv/platform';

/** A per-client budget per minute; the defaults leave room for busy integrations. */
const perMinute = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const trustSettings = {
  demo: setting('XV_TRUST_DEMO', flag(false)),
  kek: setting('XV_TRUST_KEK', keyEncryptionKeySetting(), { secret: true }),
  chainToken: setting('XV_CHAIN_TOKEN', z.string().min(24, 'must be at least 24 characters').optional(), {
    secret: true,
  }),
  chainRpcUrl: setting('XV_CHAIN_RPC_URL', httpUrl().default('http://127.0.0.1:8545')),
  /**
   * Immediate transactions (single-transaction anchors and on-chain attestations) per organization
   * and UTC day; public anchors are batched.
   */
  anchorDailyBudget: setting(
    'XV_TRUST_ANCHOR_DAILY_BUDGET',
    z.coerce.number().int().min(0).max(1_000_000).default(100),
  ),
  storeInputLimitBytes: setting(
    'XV_TRUST_INPUT_LIMIT_BYTES',
    z.coerce
      .number()
      .int()
      .positive()
      .default(256 * 1024),
  ),
  /** Seals per minute per client (person, service client, or address when anonymous in demo mode). */
  sealPerMinute: setting('XV_TRUST_SEAL_PER_MINUTE', perMinute(600)),
  /** Attestations per minute per client, counted like seals. */
  attestPerMinute: setting('XV_TRUST_ATTEST_PER_MINUTE', perMinute(600)),
  /** Anchor requests per minute per client (the signed-in person, else the address). */
  anchorPerMinute: setting('XV_TRUST_ANCHOR_PER_MINUTE', perMinute(60)),
  /**
   * Worker threads that sign seals: one per core, up to 4. A seal's signatures take a little
   * more CPU than the rest of its request on the event loop (about 0.4 ms against 0.3 ms), so
   * one thread would cap seals/s below what the event loop serves; two keep up with it, and
   * threads beyond 4 would sit idle (each costs about 30 MB).
   */
  signingThreads: setting(
    'XV_TRUST_SIGNING_THREADS',
    z.coerce.number().int().min(1).max(64).default(Math.min(availableParallelism(), 4)),
  ),
};
