/**
 * @module credentials/verification/verifier
 * Verifying an SD-JWT VC of this issuer, hand-written: `@sd-jwt/sd-jwt-vc` 0.19
 * leaves most of these checks to its caller, gets RFC 9901 §7.1 wrong, and its
 * signature check halves verification throughput (measured in docs/credentials.md,
 * "Libraries and gaps"). Checked here: the `alg` allow-list (ES256 only), `typ`
 * `dc+sd-jwt`, the issuer and its key (active or retired), the signature,
 * `exp`/`nbf`/`iat` with a small skew, the Disclosures, revocation through our
 * status list and, when a nonce is asked for, the Key Binding JWT: signed by the
 * `cnf.jwk` key, of `typ` `kb+jwt`, with that nonce, the right `sd_hash`, a fresh
 * `iat`, the audience when one is named, and never accepted twice.
 */
import { hashToken, suspendStackTraces } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { IssuerKeyring } from '../keys/issuer-keys.js';
import {
  ALLOWED_ALGS,
  importPublicJwk,
  isJsonObject,
  type JsonObject,
  parseJws,
  verifyEs256,
} from '../sd-jwt/jws.js';
import { discloseClaims, SdJwtError, sdHashOf, splitSdJwt } from '../sd-jwt/sd-jwt.js';
import { InsertBatcher } from '../shared/batch-insert.js';
import { CompiledInsert } from '../shared/compiled-insert.js';
import { STATUS_VALID, type StatusLists } from '../status/status-list.js';
import type { CredentialTables, KbPresentationsTable } from '../tables.js';
import { CLEAR_CLAIMS } from '../types.js';
import { type VerifiedIssuerJwt, VerifiedIssuerJwts } from './issuer-jwts.js';

/** Clock skew tolerated on exp, nbf and iat, seconds. */
export const CLOCK_SKEW_SECONDS = 60;
/** How old a Key Binding JWT may be, seconds. */
export const KB_MAX_AGE_SECONDS = 300;

export interface VerifyOptions {
  /** The nonce the verifier gave the holder: key binding is then required. */
  nonce?: string | undefined;
  /** The audience the Key Binding JWT must name. */
  audience?: string | undefined;
  now?: number;
}

export type VerificationResult =
  | { valid: true; iss: string; sub: string; vct: string; payload: JsonObject; exp: number; iat: number }
  | { valid: false; reason: string; message: string };

/** Why a credential is not valid, thrown to end the checks early; no stack trace is captured. */
class Invalid extends Error {
  readonly reason: string;

  constructor(reason: string, message: string) {
    const restore = suspendStackTraces();
    super(message);
    restore();
    this.reason = reason;
  }
}

const fail = (reason: string, message: string): never => {
  throw new Invalid(reason, message);
};

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

export class CredentialVerifier {
  /** Key Binding JWTs already accepted, recorded in batches; a conflict means a replay. */
  private readonly presentations: InsertBatcher<KbPresentationsTable>;
  private readonly holderKeys = new Map<string, ReturnType<typeof importPublicJwk>>();
  /** Issuer JWTs already parsed and verified, so a credential presented again costs no second P-256 verify. */
  private readonly issuerJwts = new VerifiedIssuerJwts();

  constructor(
    db: Kysely<CredentialTables>,
    private readonly keyring: IssuerKeyring,
    private readonly statusLists: StatusLists,
    private readonly issuerDid: string,
  ) {
    const insert = new CompiledInsert(db, (rows: KbPresentationsTable[]) =>
      db
        .insertInto('kb_presentations')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .returning('jwt_hash'),
    );
    this.presentations = new InsertBatcher(
      async (rows) => (await insert.execute(rows)).map((r) => r.jwt_hash),
      (row) => row.jwt_hash,
    );
  }

  async verify(token: string, options: VerifyOptions = {}): Promise<VerificationResult> {
    try {
      return await this.check(token, options);
    } catch (error) {
      if (error instanceof Invalid || error instanceof SdJwtError)
        return { valid: false, reason: error.reason, message: error.message };
      throw error;
    }
  }

  /** The issuer-signed JWT's header and payload once its alg, typ, issuer, key and signature are checked. */
  private async issuerJwt(jwt: string): Promise<VerifiedIssuerJwt> {
    const known = this.issuerJwts.get(jwt, (kid) => this.keyring.knownKey(kid)?.publicJwk);
    if (known) return known;
    const jws = parseJws(jwt) ?? fail('malformed', 'The credential is not a compact JWS.');
    const { header, payload } = jws;
    if (typeof header.alg !== 'string' || !ALLOWED_ALGS.includes(header.alg))
      fail('unsupported_alg', `The signature algorithm ${String(header.alg)} is not accepted.`);
    if (header.typ !== 'dc+sd-jwt') fail('wrong_typ', 'The credential is not of type dc+sd-jwt.');
    if (payload.iss !== this.issuerDid)
      fail('unknown_issuer', 'The credential was not issued by this service.');
    const kid =
      typeof header.kid === 'string' && header.kid.startsWith(`${this.issuerDid}#`)
        ? header.kid.slice(this.issuerDid.length + 1)
        : undefined;
    const key = kid ? await this.keyring.verificationKey(kid) : undefined;
    if (!key) return fail('unknown_key', 'The credential names no key of this issuer.');
    if (!verifyEs256(jws, key.publicKey)) fail('bad_signature', 'The signature does not verify.');
    const verified = { header, payload, kid: key.kid, publicJwk: key.publicJwk };
    this.issuerJwts.remember(jwt, verified);
    return verified;
  }

  private async check(token: string, options: VerifyOptions): Promise<VerificationResult> {
    const now = options.now ?? Math.floor(Date.now() / 1000);
    const parts = splitSdJwt(token);
    const { payload } = await this.issuerJwt(parts.jwt);

    // Disclosures first: one that smuggles in a clear claim (vct, cnf…) is named for what it is.
    const claims = discloseClaims(payload, parts.disclosures, CLEAR_CLAIMS);
    if (
      typeof payload.vct !== 'string' ||
      typeof payload.sub !== 'string' ||
      !isInt(payload.iat) ||
      !isInt(payload.exp)
    )
      fail('malformed', 'The credential lacks vct, sub, iat or exp.');
    const iat = payload.iat as number;
    const exp = payload.exp as number;
    if (now > exp + CLOCK_SKEW_SECONDS) fail('expired', 'The credential has expired.');
    if (payload.nbf !== undefined && (!isInt(payload.nbf) || now < payload.nbf - CLOCK_SKEW_SECONDS))
      fail('not_yet_valid', 'The credential is not valid yet.');
    if (iat > now + CLOCK_SKEW_SECONDS) fail('not_yet_valid', 'The credential is issued in the future.');

    await this.checkStatus(payload.status);
    if (options.nonce !== undefined || parts.kbJwt !== undefined)
      await this.checkKeyBinding(payload, parts.kbJwt, parts.presentation, options, now);

    return {
      valid: true,
      iss: this.issuerDid,
      sub: payload.sub as string,
      vct: payload.vct as string,
      payload: claims,
      exp,
      iat,
    };
  }

  /** Imported holder keys, kept so a wallet presenting often costs one import. */
  private holderKey(jwk: unknown): ReturnType<typeof importPublicJwk> {
    if (!isJsonObject(jwk)) return null;
    const id = JSON.stringify([jwk.kty, jwk.crv, jwk.x, jwk.y, 'd' in jwk]);
    let holder = this.holderKeys.get(id);
    if (holder === undefined) {
      holder = importPublicJwk(jwk);
      if (this.holderKeys.size >= 10_000) this.holderKeys.clear();
      this.holderKeys.set(id, holder);
    }
    return holder;
  }

  private async checkStatus(status: unknown) {
    if (status === undefined) return;
    const reference = isJsonObject(status) ? status.status_list : undefined;
    if (!isJsonObject(reference) || !isInt(reference.idx) || typeof reference.uri !== 'string')
      return fail('malformed', 'The status claim is not a status list reference.');
    const listId = this.statusLists.listIdOf(reference.uri);
    const value = listId === undefined ? undefined : await this.statusLists.statusOf(listId, reference.idx);
    if (value === undefined) fail('status_unknown', 'The credential status cannot be found.');
    if (value !== STATUS_VALID) fail('revoked', 'The credential has been revoked.');
  }

  private async checkKeyBinding(
    payload: JsonObject,
    kbJwt: string | undefined,
    presentation: string,
    options: VerifyOptions,
    now: number,
  ) {
    if (!kbJwt)
      return fail('key_binding_missing', 'A nonce was given but the presentation has no Key Binding JWT.');
    const cnf = isJsonObject(payload.cnf) ? payload.cnf.jwk : undefined;
    const holder =
      this.holderKey(cnf) ?? fail('key_binding_unsupported', 'The credential is not bound to a holder key.');
    const kb = parseJws(kbJwt) ?? fail('key_binding_invalid', 'The Key Binding JWT is not a compact JWS.');
    if (
      typeof kb.header.alg !== 'string' ||
      !ALLOWED_ALGS.includes(kb.header.alg) ||
      kb.header.typ !== 'kb+jwt'
    )
      fail('key_binding_invalid', 'The Key Binding JWT has the wrong alg or typ.');
    if (!verifyEs256(kb, holder.key))
      fail('key_binding_invalid', 'The Key Binding JWT is not signed by the holder key.');
    const claims = kb.payload;
    if (options.nonce !== undefined && claims.nonce !== options.nonce)
      fail('nonce_mismatch', 'The Key Binding JWT carries another nonce.');
    if (typeof claims.aud !== 'string' || (options.audience !== undefined && claims.aud !== options.audience))
      fail('audience_mismatch', 'The Key Binding JWT is meant for another audience.');
    if (!isInt(claims.iat) || claims.iat > now + CLOCK_SKEW_SECONDS || claims.iat < now - KB_MAX_AGE_SECONDS)
      fail('key_binding_stale', 'The Key Binding JWT is not fresh.');
    if (claims.sd_hash !== sdHashOf(presentation))
      fail('sd_hash_mismatch', 'The Key Binding JWT does not cover this presentation.');
    if (options.nonce === undefined) return;
    // Last, so a presentation that fails another check is not used up.
    const first = await this.presentations.insert({
      jwt_hash: hashToken(kbJwt),
      expires_at: (now + KB_MAX_AGE_SECONDS + CLOCK_SKEW_SECONDS) * 1000,
    });
    if (!first) fail('key_binding_replayed', 'This Key Binding JWT has been presented before.');
  }
}
