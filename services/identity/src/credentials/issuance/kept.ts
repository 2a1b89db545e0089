/**
 * @module credentials/issuance/kept
 * Credentials a person issued from the account page, kept so the page can show one
 * again after its post-redirect-get: the SD-JWT is sealed under the key-encryption
 * key (bound to the credential's id) and read back only by its owner (the user it
 * names, or an administrator of the organization it attests). Also decodes an
 * SD-JWT into rows a person can read: every claim with its value, and whether the
 * holder may leave it out of a presentation (it came from a Disclosure).
 */
import type { KeyEncryptionKey } from '@xv/platform';
import type { Kysely } from 'kysely';
import { isJsonObject, parseJws } from '../sd-jwt/jws.js';
import { discloseClaims, splitSdJwt } from '../sd-jwt/sd-jwt.js';
import type { CredentialsTable, CredentialTables } from '../tables.js';
import type { CredentialSummary, IssuedCredential } from './issuer.js';

type Db = Kysely<CredentialTables>;

export interface ClaimRow {
  /** The claim's name; a nested claim is dotted (`claims.country`). */
  name: string;
  /** The value as text: strings as they are, anything else as JSON. */
  value: string;
  /** True when the holder may leave it out (a Disclosure); false when it is in the signed payload. */
  selective: boolean;
}

export interface KeptCredential {
  summary: CredentialSummary;
  /** The SD-JWT as issued, or null when it was not kept (issued through the API or to a wallet). */
  sdjwt: string | null;
  /** Its claims, decoded; empty when the SD-JWT was not kept. */
  claims: ClaimRow[];
}

export interface CredentialOwner {
  userId: string;
  adminOrgIds: readonly string[];
}

const sealContext = (id: string) => `credential-sdjwt:${id}`;
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The claims of an SD-JWT with its Disclosures applied, as rows, subject claims first. */
export function claimRows(sdjwt: string): ClaimRow[] {
  const parts = splitSdJwt(sdjwt);
  const signed = parseJws(parts.jwt)?.payload;
  if (!signed) return [];
  const disclosed = discloseClaims(signed, parts.disclosures);
  const rows: ClaimRow[] = [];
  for (const [name, value] of Object.entries(disclosed)) {
    const signedValue = signed[name];
    if (isJsonObject(value) && name === 'claims') {
      const signedNested = isJsonObject(signedValue) ? signedValue : {};
      for (const [inner, innerValue] of Object.entries(value))
        rows.push({
          name: `${name}.${inner}`,
          value: asText(innerValue),
          selective: !(inner in signedNested),
        });
    } else rows.push({ name, value: asText(value), selective: signedValue === undefined });
  }
  const REGISTERED = ['iss', 'sub', 'vct', 'iat', 'exp', 'status', 'cnf'];
  const rank = (row: ClaimRow) => REGISTERED.indexOf(row.name.split('.')[0]!);
  return rows.sort((a, b) => rank(a) - rank(b));
}

export class KeptCredentials {
  constructor(
    private readonly db: Db,
    private readonly kek: KeyEncryptionKey,
    private readonly summarize: (row: CredentialsTable) => CredentialSummary,
  ) {}

  /** Keeps the SD-JWT of a credential just issued, so its owner can read it again. */
  async keep(issued: IssuedCredential): Promise<void> {
    await this.db
      .updateTable('credentials')
      .set({ sdjwt_sealed: this.kek.encrypt(Buffer.from(issued.sdjwt), sealContext(issued.id)) })
      .where('id', '=', issued.id)
      .execute();
  }

  /** A credential of `owner`, with its kept SD-JWT; undefined for anyone else's (or none). */
  async read(realmId: string, id: string, owner: CredentialOwner): Promise<KeptCredential | undefined> {
    const row = await this.db
      .selectFrom('credentials')
      .selectAll()
      .where('realm_id', '=', realmId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const owns =
      row.user_id !== null ? row.user_id === owner.userId : owner.adminOrgIds.includes(row.org_id ?? '');
    if (!owns) return undefined;
    const sdjwt = row.sdjwt_sealed
      ? this.kek.decrypt(row.sdjwt_sealed, sealContext(row.id)).toString()
      : null;
    return { summary: this.summarize(row), sdjwt, claims: sdjwt ? claimRows(sdjwt) : [] };
  }
}
