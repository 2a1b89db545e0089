/**
 * @module credentials/did/documents
 * did:web documents. The service's DID lists every issuer key (active and retired)
 * as a JsonWebKey2020 verification method for `assertionMethod`, so credentials
 * signed by a retired key keep verifying. Organizations and users have DIDs under
 * the service's (`:o:<org_id>`, `:u:<user_id>`); they hold no keys of their own, so
 * their documents name the service as controller and refer to its keys (by DID
 * URL, resolved in the service's document): what the service asserts about them
 * is signed by it.
 *
 * There is no `/.well-known/jwt-vc-issuer`: SD-JWT VC's issuer metadata is for
 * issuers named by an https URL, and ours is a DID, whose keys a verifier finds
 * through this document.
 */
import type { IssuerKey } from '../keys/issuer-keys.js';

const CONTEXT = ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'];

function verificationMethods(serviceDid: string, keys: readonly IssuerKey[]) {
  return keys.map((key) => ({
    id: `${serviceDid}#${key.kid}`,
    type: 'JsonWebKey2020',
    controller: serviceDid,
    publicKeyJwk: { ...key.publicJwk, kid: `${serviceDid}#${key.kid}`, alg: 'ES256', use: 'sig' },
  }));
}

export function serviceDidDocument(serviceDid: string, keys: readonly IssuerKey[]) {
  const methods = verificationMethods(serviceDid, keys);
  return {
    '@context': CONTEXT,
    id: serviceDid,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
  };
}

/** The document of an organization's or a user's DID: controlled by the service, asserted for with its keys. */
export function subjectDidDocument(did: string, serviceDid: string, keys: readonly IssuerKey[]) {
  return {
    '@context': CONTEXT,
    id: did,
    controller: serviceDid,
    assertionMethod: keys.map((key) => `${serviceDid}#${key.kid}`),
  };
}
