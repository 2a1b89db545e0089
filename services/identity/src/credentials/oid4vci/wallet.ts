/**
 * @module credentials/oid4vci/wallet
 * The pre-authorized code flow of OpenID4VCI, without HTTP: credential offers
 * (with an optional 4-digit PIN, `tx_code`), the one-time exchange of a code for
 * an access token, and single-use nonces (`c_nonce`), each good only with the access
 * token it was issued with. Codes, PINs, tokens and
 * nonces are stored only as SHA-256 hashes; every "use once" is one conditional
 * UPDATE, so two racing requests cannot both win, and the state survives restarts.
 */
import { randomInt } from 'node:crypto';
import { hashToken, newId, newSecretToken, sha256Hex } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { CredentialTables, WalletTokensTable } from '../tables.js';
import type { CredentialType } from '../types.js';
import { invalidGrant, invalidRequest } from './oauth-error.js';

type Db = Kysely<CredentialTables>;

export const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
export const ACCESS_TOKEN_SECONDS = 600;
export const NONCE_SECONDS = 600;
export const PIN_LENGTH = 4;
/** Wrong PINs a code survives; the next one burns it. */
export const PIN_ATTEMPTS = 5;

export interface OfferRequest {
  realmId: string;
  userId: string;
  orgId: string | null;
  types: CredentialType[];
  pin: boolean;
}

export interface CredentialOfferResult {
  offer: {
    credential_issuer: string;
    credential_configuration_ids: CredentialType[];
    grants: {
      [PRE_AUTHORIZED_GRANT]: {
        'pre-authorized_code': string;
        tx_code?: { length: number; input_mode: 'numeric' };
      };
    };
  };
  offerUri: string;
  txCode?: string;
  expiresAt: number;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  c_nonce: string;
  c_nonce_expires_in: number;
}

export type WalletToken = WalletTokensTable;

const pinHash = (codeHash: string, pin: string) => sha256Hex(`${codeHash}:${pin}`);

export class WalletIssuance {
  constructor(
    private readonly db: Db,
    private readonly issuerUrl: string,
    private readonly offerSeconds: number,
  ) {}

  async createOffer(request: OfferRequest): Promise<CredentialOfferResult> {
    const now = Date.now();
    const code = newSecretToken('xpc');
    const codeHash = hashToken(code);
    const txCode = request.pin ? String(randomInt(10 ** PIN_LENGTH)).padStart(PIN_LENGTH, '0') : undefined;
    const expiresAt = Math.floor(now / 1000) + this.offerSeconds;
    await this.db
      .insertInto('wallet_offers')
      .values({
        id: newId('ofr'),
        realm_id: request.realmId,
        user_id: request.userId,
        org_id: request.orgId,
        types: JSON.stringify(request.types),
        code_hash: codeHash,
        tx_code_hash: txCode ? pinHash(codeHash, txCode) : null,
        tx_attempts: 0,
        created_at: now,
        expires_at: expiresAt * 1000,
        used_at: null,
        burned: 0,
      })
      .execute();
    const offer: CredentialOfferResult['offer'] = {
      credential_issuer: this.issuerUrl,
      credential_configuration_ids: request.types,
      grants: {
        [PRE_AUTHORIZED_GRANT]: {
          'pre-authorized_code': code,
          ...(txCode ? { tx_code: { length: PIN_LENGTH, input_mode: 'numeric' as const } } : {}),
        },
      },
    };
    return {
      offer,
      offerUri: `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(offer))}`,
      ...(txCode ? { txCode } : {}),
      expiresAt,
    };
  }

  /** Exchanges a pre-authorized code (and its PIN) for an access token and a first nonce; the code is then spent. */
  async exchangeCode(code: string, txCode: string | undefined): Promise<TokenResponse> {
    const now = Date.now();
    const codeHash = hashToken(code);
    const offer = await this.db
      .selectFrom('wallet_offers')
      .selectAll()
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    if (!offer) throw invalidGrant('The pre-authorized code is not valid.');
    if (offer.used_at !== null) throw invalidGrant('The pre-authorized code has already been used.');
    if (offer.expires_at <= now) throw invalidGrant('The pre-authorized code has expired.');
    if (offer.tx_code_hash !== null) {
      if (txCode === undefined || txCode === '') throw invalidRequest('This offer needs its PIN (tx_code).');
      // Count the attempt before judging it: concurrent guesses cannot get past the limit.
      const counted = await this.db
        .updateTable('wallet_offers')
        .set((eb) => ({ tx_attempts: eb('tx_attempts', '+', 1) }))
        .where('id', '=', offer.id)
        .where('used_at', 'is', null)
        .where('tx_attempts', '<', PIN_ATTEMPTS)
        .executeTakeFirst();
      if (Number(counted.numUpdatedRows) === 0)
        throw invalidGrant('The pre-authorized code has already been used.');
      if (pinHash(codeHash, txCode) !== offer.tx_code_hash) {
        const attempts = await this.db
          .selectFrom('wallet_offers')
          .select('tx_attempts')
          .where('id', '=', offer.id)
          .executeTakeFirstOrThrow();
        if (attempts.tx_attempts >= PIN_ATTEMPTS) {
          await this.db
            .updateTable('wallet_offers')
            .set({ used_at: now, burned: 1 })
            .where('id', '=', offer.id)
            .where('used_at', 'is', null)
            .execute();
          throw invalidGrant('Too many wrong PINs: the offer can no longer be used.');
        }
        throw invalidGrant('The PIN (tx_code) is wrong.');
      }
    }
    const claimed = await this.db
      .updateTable('wallet_offers')
      .set({ used_at: now })
      .where('id', '=', offer.id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0)
      throw invalidGrant('The pre-authorized code has already been used.');

    const accessToken = newSecretToken('xwt');
    await this.db
      .insertInto('wallet_tokens')
      .values({
        token_hash: hashToken(accessToken),
        offer_id: offer.id,
        realm_id: offer.realm_id,
        user_id: offer.user_id,
        org_id: offer.org_id,
        types: offer.types,
        created_at: now,
        expires_at: now + ACCESS_TOKEN_SECONDS * 1000,
      })
      .execute();
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      c_nonce: await this.newNonce(hashToken(accessToken)),
      c_nonce_expires_in: NONCE_SECONDS,
    };
  }

  /** The live access token, or undefined. */
  async token(accessToken: string): Promise<WalletToken | undefined> {
    const row = await this.db
      .selectFrom('wallet_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(accessToken))
      .executeTakeFirst();
    return row && row.expires_at > Date.now() ? row : undefined;
  }

  /** A fresh nonce, bound to the access token of hash `tokenHash` (null: to none, OpenID4VCI 1.0's nonce endpoint). */
  async newNonce(tokenHash: string | null): Promise<string> {
    const nonce = newSecretToken('xcn');
    const now = Date.now();
    await this.db
      .insertInto('wallet_nonces')
      .values({
        nonce_hash: hashToken(nonce),
        token_hash: tokenHash,
        created_at: now,
        expires_at: now + NONCE_SECONDS * 1000,
        used_at: null,
      })
      .execute();
    return nonce;
  }

  /**
   * Spends a nonce for the access token of hash `tokenHash`; false when it is unknown,
   * expired, already spent, or bound to another token (which leaves it unspent for its owner).
   */
  async consumeNonce(nonce: string, tokenHash: string): Promise<boolean> {
    const now = Date.now();
    const result = await this.db
      .updateTable('wallet_nonces')
      .set({ used_at: now })
      .where('nonce_hash', '=', hashToken(nonce))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where((eb) => eb.or([eb('token_hash', 'is', null), eb('token_hash', '=', tokenHash)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Forgets what can no longer be used (a day after it stopped being usable). */
  async pruneExpired(now = Date.now()): Promise<void> {
    const before = now - 24 * 3600 * 1000;
    await this.db.deleteFrom('wallet_nonces').where('expires_at', '<', before).execute();
    await this.db.deleteFrom('wallet_tokens').where('expires_at', '<', before).execute();
    await this.db.deleteFrom('wallet_offers').where('expires_at', '<', before).execute();
  }
}
