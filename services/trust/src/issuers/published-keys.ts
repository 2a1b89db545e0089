/**
 * @module issuers/published-keys
 * The keys each issuer published (the key set of `GET /api/keys/jwks`) and the rule
 * every verification applies to them: a proof, receipt or attestation counts for an
 * organization only when it was signed by a key that organization published, and is
 * dated inside that key's validity window (from its creation until its retirement).
 * The demo issuer publishes keys only in demo mode.
 */
import type { IssuerKey, Keyring } from '../keys/keyring.js';
import { DEMO_ISSUER_ID } from './directory.js';

/** Why a key named by a proof is not one its issuer published. */
export type UnpublishedKey = 'unknown_issuer' | 'unknown_issuer_key' | 'demo_issuer';

/** Why a statement falls outside its key's validity window. */
export type OutsideValidity = 'key_retired' | 'key_not_yet_valid';

/**
 * How far a claimed date may precede its key's creation: instances of one service
 * share a database, not a clock.
 */
export const KEY_CLOCK_SKEW_MS = 5 * 60_000;

export class PublishedKeys {
  constructor(
    private readonly keyring: Keyring,
    private readonly demo: boolean,
  ) {}

  /** The key set: every organization's keys, active and retired; the demo issuer's only in demo mode. */
  async all(): Promise<IssuerKey[]> {
    const keys = await this.keyring.all();
    return this.demo ? keys : keys.filter((k) => k.orgId !== DEMO_ISSUER_ID);
  }

  /**
   * The key `keyId` as `orgId` published it, or why it is not one of its keys; `at` is the
   * date (Unix ms) of the statement it will judge (see Keyring.key).
   */
  async find(
    orgId: string | null,
    keyId: string | null,
    at?: number,
  ): Promise<{ key: IssuerKey } | { unpublished: UnpublishedKey }> {
    if (orgId === null) return { unpublished: 'unknown_issuer' };
    if (orgId === DEMO_ISSUER_ID && !this.demo) return { unpublished: 'demo_issuer' };
    const key = keyId === null ? undefined : await this.keyring.key(orgId, keyId, at);
    if (key) return { key };
    return { unpublished: (await this.keyring.hasKeys(orgId)) ? 'unknown_issuer_key' : 'unknown_issuer' };
  }
}

/** Whether a statement dated `at` (Unix ms; NaN when it names no readable date) is inside `key`'s window. */
export function outsideValidity(
  key: Pick<IssuerKey, 'status' | 'createdAt' | 'retiredAt'>,
  at: number,
): OutsideValidity | null {
  if (Number.isNaN(at) || at < key.createdAt - KEY_CLOCK_SKEW_MS) return 'key_not_yet_valid';
  if (key.status === 'retired' && key.retiredAt === null) return 'key_retired';
  if (key.retiredAt !== null && at > key.retiredAt) return 'key_retired';
  return null;
}
