/**
 * @module credentials/did/resolver
 * The did:web documents this service publishes, with the issuer keys of now: the
 * service's own, and those of its organizations and users (404 for unknown ones).
 */
import { organizationDid, userDid } from '../../accounts/dids.js';
import type { AccountDirectory } from '../accounts.js';
import { credentialErrors } from '../errors.js';
import type { IssuerKeyring } from '../keys/issuer-keys.js';
import { serviceDidDocument, subjectDidDocument } from './documents.js';

export class DidDocuments {
  constructor(
    private readonly did: string,
    private readonly baseUrl: string,
    private readonly keyring: IssuerKeyring,
    private readonly accounts: AccountDirectory,
  ) {}

  async service() {
    return serviceDidDocument(this.did, await this.keyring.publishedKeys());
  }

  async organization(orgId: string) {
    const org = await this.accounts.organization(orgId);
    if (!org) throw credentialErrors.org_not_found();
    return subjectDidDocument(
      organizationDid(this.baseUrl, org.id),
      this.did,
      await this.keyring.publishedKeys(),
    );
  }

  async user(userId: string) {
    const user = await this.accounts.user(userId);
    if (!user) throw credentialErrors.user_not_found();
    return subjectDidDocument(userDid(this.baseUrl, user.id), this.did, await this.keyring.publishedKeys());
  }
}
