/**
 * @module credentials/oid4vci/wallet
 * The pre-authorized code flow of OpenID4VCI, without HTTP: credential offers
 * (with an optional 4-digit PIN, `tx_code`), by value and by reference (a short
 * `credential_offer_uri` whose document is served once, until the code expires:
 * the reference is 256 random bits, stored as a hash, and the document is sealed
 * under the key-encryption key until then), the one-time exchange of a code for
 * an access token, and single-use nonces (`c_nonce`), each good only with the access
 * token it was issued with. Codes, PINs, tokens and
 * nonces are stored only as SHA-256 hashes; every "use once" is one conditional
 * UPDATE, so two racing requests cannot both win, and the state survives restarts.
 */
import { randomInt } from 'node:crypto';
import { hashToken, type KeyEncryptionKey, newId, newSecretToken, sha256Hex } from '@xv/platform';
import type { Kysely } from 'kysely';
import { credentialErrors } from '../errors.js';
import { isJsonObject, type JsonObject } from '../sd-jwt/jws.js';
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
  /** The offer by value (`credential_offer=`), as the spec fixes it. */
  offerUri: string;
  /** The offer by reference (`credential_offer_uri=`): short, for QR codes; its document is served once. */
  offerUriByReference: string;
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
/** The associated data of a sealed offer document: it opens only for its own row. */
const documentContext = (referenceHash: string) => `wallet-offer:${referenceHash}`;

export class WalletIssuance {
  constructor(
    private readonly db: Db,
    private readonly issuerUrl: string,
    private readonly offerSeconds: number,
    private readonly kek: KeyEncryptionKey,
  ) {}

  /** Where a wallet fetches the offer document of `reference`. */
  offerDocumentUrl(reference: string): string {
    return `${this.issuerUrl}/api/oid4vci/offers/${reference}`;
  }

  async createOffer(request: OfferRequest): Promise<CredentialOfferResult> {
    const now = Date.now();
    const code = newSecretToken('xpc');
    const codeHash = hashToken(code);
    const reference = newSecretToken('xof');
    const referenceHash = hashToken(reference);
    const txCode = request.pin ? String(randomInt(10 ** PIN_LENGTH)).padStart(PIN_LENGTH, '0') : undefined;
    const expiresAt = Math.floor(now / 1000) + this.offerSeconds;
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
    const document = Buffer.from(JSON.stringify(offer));
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
        reference_hash: referenceHash,
        offer_document: this.kek.encrypt(document, documentContext(referenceHash)),
        document_served_at: null,
      })
      .execute();
    return {
      offer,
      offerUri: `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(offer))}`,
      offerUriByReference: `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(this.offerDocumentUrl(reference))}`,
      ...(txCode ? { txCode } : {}),
      expiresAt,
    };
  }

  /**
   * The offer document of `reference`, once: the first fetch takes it (one conditional
   * UPDATE, so two racing wallets cannot both get it), later ones are refused, as are
   * fetches after the offer expired.
   */
  async takeOfferDocument(reference: string): Promise<JsonObject> {
    const now = Date.now();
    const referenceHash = hashToken(reference);
    const row = await this.db
      .selectFrom('wallet_offers')
      .select(['id', 'offer_document', 'document_served_at', 'expires_at'])
      .where('reference_hash', '=', referenceHash)
      .executeTakeFirst();
    if (!row) throw credentialErrors.offer_not_found();
    if (row.document_served_at !== null || row.offer_document === null)
      throw credentialErrors.offer_already_fetched();
    if (row.expires_at <= now) throw credentialErrors.offer_expired();
    const taken = await this.db
      .updateTable('wallet_offers')
      .set({ document_served_at: now, offer_document: null })
      .where('id', '=', row.id)
      .where('document_served_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) throw credentialErrors.offer_already_fetched();
    const document: unknown = JSON.parse(
      this.kek.decrypt(row.offer_document, documentContext(referenceHash)).toString(),
    );
    if (!isJsonObject(document)) throw new Error('A stored offer document is not a JSON object.');
    return document;
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
