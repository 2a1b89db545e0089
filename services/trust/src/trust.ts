/**
 * @module trust
 * The trust domain assembled from its parts, with no HTTP in it: the service wires
 * it to routes, the operator command and tests use it directly.
 */
import type { Database } from '@xv/platform';
import { AnchorBudget } from './anchoring/budget.js';
import { ChainReader } from './anchoring/chain-check.js';
import { ReceiptAnchors } from './anchoring/receipt-anchors.js';
import { RelayerClient } from './anchoring/relayer-client.js';
import { Attestations } from './attestations/attestations.js';
import { EasChain } from './attestations/eas-chain.js';
import type { TrustTables } from './db.js';
import { IssuerDirectory } from './issuers/directory.js';
import { PublishedKeys } from './issuers/published-keys.js';
import { loadTrustKek } from './keys/kek.js';
import { Keyring } from './keys/keyring.js';
import { Receipts } from './receipts/receipts.js';
import { SealPolicy } from './seal/policy.js';
import { Sealing } from './seal/sealing.js';
import { SigningPool } from './seal/signing-pool.js';

export interface TrustOptions {
  database: Database<TrustTables>;
  /** `XV_TRUST_KEK`, or undefined for the generated key file in `dataDir`. */
  kek: string | undefined;
  dataDir: string;
  demo: boolean;
  trustUrl: string;
  identityUrl: string;
  relayer: { url: string; token: string };
  chainRpcUrl: string;
  inputLimitBytes: number;
  /** Immediate transactions (anchors, on-chain attestations) per organization and UTC day. */
  anchorDailyBudget: number;
  /** Worker threads that make the seal signatures and check those of proofs. */
  signingThreads: number;
}

export type Trust = ReturnType<typeof createTrust>;

export function createTrust(o: TrustOptions) {
  const db = o.database.kysely;
  const keyring = new Keyring(db, loadTrustKek(o.kek, o.dataDir));
  const signing = new SigningPool({ threads: o.signingThreads });
  const directory = new IssuerDirectory({ identityUrl: o.identityUrl, trustUrl: o.trustUrl, demo: o.demo });
  const publishedKeys = new PublishedKeys(keyring, o.demo);
  const relayer = new RelayerClient(o.relayer);
  const budget = new AnchorBudget(db, o.anchorDailyBudget);
  const anchors = new ReceiptAnchors({
    db,
    relayer,
    budget,
    chain: new ChainReader(o.chainRpcUrl),
  });
  const receipts = new Receipts({
    db,
    keyring,
    publishedKeys,
    signer: signing.sign,
    checker: signing.check,
    directory,
    anchors,
    trustUrl: o.trustUrl,
    inputLimitBytes: o.inputLimitBytes,
  });
  const policy = new SealPolicy({ directory, demo: o.demo });
  const sealing = new Sealing({ policy, receipts, anchors });
  const eas = new EasChain({ relayer, rpcUrl: o.chainRpcUrl });
  const attestations = new Attestations({ db, keyring, publishedKeys, trustUrl: o.trustUrl, eas, budget });
  return {
    keyring,
    publishedKeys,
    directory,
    receipts,
    anchors,
    policy,
    sealing,
    attestations,
    close: () => signing.close(),
  };
}
