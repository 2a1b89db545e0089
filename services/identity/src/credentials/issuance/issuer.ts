/**
 * @module credentials/issuance/issuer
 * Issuing SD-JWT VCs (`typ` `dc+sd-jwt`; packed by `sd-jwt/sd-jwt.ts`, not by
 * `@sd-jwt/sd-jwt-vc`, which costs twice as much: docs/credentials.md),
 * listing them and revoking them. Each
 * credential is stored with its status-list slot (the slot's uniqueness is the
 * database's) before it is signed, so every credential in a holder's hands can be
 * revoked. `iat` is rounded down to the day
 * (and `exp` follows it), so two credentials issued the same day cannot be told
 * apart by their times.
 */
import { newId } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { IssuerKeyring } from '../keys/issuer-keys.js';
import { type JsonObject, jwkThumbprint, type PublicJwk, signEs256 } from '../sd-jwt/jws.js';
import { packDisclosures } from '../sd-jwt/sd-jwt.js';
import { InsertBatcher } from '../shared/batch-insert.js';
import { CompiledInsert } from '../shared/compiled-insert.js';
import type { StatusLists } from '../status/status-list.js';
import type { CredentialsTable, CredentialTables } from '../tables.js';
import { CREDENTIAL_CATALOGUE, type CredentialType, vctOf } from '../types.js';

type Db = Kysely<CredentialTables>;

const DAY_SECONDS = 86_400;

export interface IssueRequest {
  realmId: string;
  type: CredentialType;
  /** DID of the subject: a user's or an organization's. */
  subject: string;
  userId: string | null;
  orgId: string | null;
  claims: JsonObject;
  /** The wallet key the credential is bound to (`cnf.jwk`). */
  holderJwk?: PublicJwk | undefined;
  issuedBy: string;
  channel: 'api' | 'wallet' | 'service';
}

/** The credential resource of the spec. */
export interface IssuedCredential {
  id: string;
  type: CredentialType;
  vct: string;
  issuer: string;
  subject: string;
  claims: JsonObject;
  sdjwt: string;
  issuedAt: string;
  expiresAt: number;
}

export interface CredentialSummary {
  id: string;
  type: string;
  subject: string;
  orgId: string | null;
  claims: JsonObject;
  issuedAt: string;
  expiresAt: number;
  revoked: boolean;
  channel: string;
}

export interface IssuerIdentity {
  did: string;
  baseUrl: string;
  credentialDays: number;
}

export type RevokeOutcome = 'revoked' | 'not_found' | 'forbidden';

export class CredentialService {
  /** Credentials issued at the same moment are stored in one statement; a taken status slot comes back false. */
  private readonly inserts: InsertBatcher<CredentialsTable>;

  constructor(
    private readonly db: Db,
    private readonly keyring: IssuerKeyring,
    private readonly statusLists: StatusLists,
    private readonly issuer: IssuerIdentity,
  ) {
    const insert = new CompiledInsert(db, (rows: CredentialsTable[]) =>
      db
        .insertInto('credentials')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .returning('id'),
    );
    this.inserts = new InsertBatcher(
      async (rows) => (await insert.execute(rows)).map((r) => r.id),
      (row) => row.id,
    );
  }

  async issue(request: IssueRequest): Promise<IssuedCredential> {
    const now = Date.now();
    const iat = Math.floor(now / 1000 / DAY_SECONDS) * DAY_SECONDS;
    const exp = iat + this.issuer.credentialDays * DAY_SECONDS;
    const id = newId('vc');
    const vct = vctOf(this.issuer.baseUrl, request.type);
    const key = await this.keyring.signingKey();
    const slot = await this.statusLists.withFreeSlot(async (slot) => {
      const stored = await this.inserts.insert({
        id,
        realm_id: request.realmId,
        type: request.type,
        vct,
        subject: request.subject,
        user_id: request.userId,
        org_id: request.orgId,
        claims: JSON.stringify(request.claims),
        holder_jkt: request.holderJwk ? jwkThumbprint(request.holderJwk) : null,
        status_list_id: slot.listId,
        status_idx: slot.idx,
        issued_by: request.issuedBy,
        channel: request.channel,
        created_at: now,
        iat,
        exp,
        revoked_at: null,
        revoked_by: null,
        sdjwt_sealed: null,
      });
      return stored && slot;
    });
    const { disclosable, nested } = CREDENTIAL_CATALOGUE[request.type];
    const { payload, disclosures } = packDisclosures(request.claims, disclosable, nested);
    const jwt = signEs256(
      { typ: 'dc+sd-jwt', kid: `${this.issuer.did}#${key.kid}` },
      {
        ...payload,
        iss: this.issuer.did,
        sub: request.subject,
        vct,
        iat,
        exp,
        status: { status_list: { idx: slot.idx, uri: this.statusLists.uriOf(slot.listId) } },
        ...(request.holderJwk ? { cnf: { jwk: request.holderJwk } } : {}),
      },
      key.privateKey,
    );
    return {
      id,
      type: request.type,
      vct,
      issuer: this.issuer.did,
      subject: request.subject,
      claims: request.claims,
      sdjwt: `${jwt}~${disclosures.map((d) => `${d}~`).join('')}`,
      issuedAt: new Date(iat * 1000).toISOString(),
      expiresAt: exp,
    };
  }

  /** A user's own credentials and those of the organizations they administer. */
  async listFor(
    realmId: string,
    userId: string,
    adminOrgIds: readonly string[],
  ): Promise<CredentialSummary[]> {
    const rows = await this.db
      .selectFrom('credentials')
      .selectAll()
      .where('realm_id', '=', realmId)
      .where((eb) =>
        adminOrgIds.length > 0
          ? eb.or([
              eb('user_id', '=', userId),
              eb.and([eb('user_id', 'is', null), eb('org_id', 'in', [...adminOrgIds])]),
            ])
          : eb('user_id', '=', userId),
      )
      .orderBy('created_at', 'desc')
      .limit(200)
      .execute();
    return rows.map(summarize);
  }

  /** Revokes the membership credentials a user holds for an organization, once their role there changed or ended. */
  async revokeMembershipCredentials(orgId: string, userId: string, by: string): Promise<number> {
    const rows = await this.db
      .selectFrom('credentials')
      .select(['id', 'status_list_id'])
      .where('type', '=', 'MembershipCredential')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    if (rows.length === 0) return 0;
    await this.db
      .updateTable('credentials')
      .set({ revoked_at: Date.now(), revoked_by: by })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .where('revoked_at', 'is', null)
      .execute();
    for (const listId of new Set(rows.map((r) => r.status_list_id))) await this.statusLists.touch(listId);
    return rows.length;
  }

  /** Revokes a credential for its owner: the user it names, or an admin of the organization it attests. */
  async revoke(
    realmId: string,
    id: string,
    by: { userId: string; adminOrgIds: readonly string[] },
  ): Promise<RevokeOutcome> {
    const row = await this.db
      .selectFrom('credentials')
      .select(['id', 'user_id', 'org_id', 'status_list_id', 'revoked_at'])
      .where('realm_id', '=', realmId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return 'not_found';
    const owner =
      row.user_id !== null ? row.user_id === by.userId : by.adminOrgIds.includes(row.org_id ?? '');
    if (!owner) return 'forbidden';
    if (row.revoked_at === null) {
      const result = await this.db
        .updateTable('credentials')
        .set({ revoked_at: Date.now(), revoked_by: by.userId })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) await this.statusLists.touch(row.status_list_id);
    }
    return 'revoked';
  }
}

export function summarize(row: CredentialsTable): CredentialSummary {
  return {
    id: row.id,
    type: row.type,
    subject: row.subject,
    orgId: row.org_id,
    claims: JSON.parse(row.claims) as JsonObject,
    issuedAt: new Date(Number(row.iat) * 1000).toISOString(),
    expiresAt: Number(row.exp),
    revoked: row.revoked_at !== null,
    channel: row.channel,
  };
}
