/**
 * @module credentials/oid4vci/metadata
 * What a wallet reads before it asks for anything: the credential issuer metadata
 * (`/.well-known/openid-credential-issuer`, OpenID4VCI 1.0, one `dc+sd-jwt`
 * configuration per credential type) and the OAuth authorization server metadata
 * (`/.well-known/oauth-authorization-server`, the token endpoint of the
 * pre-authorized code flow; anonymous access allowed).
 */
import { CREDENTIAL_CATALOGUE, CREDENTIAL_TYPES, vctOf } from '../types.js';
import { PRE_AUTHORIZED_GRANT } from './wallet.js';

const ALGS = ['ES256'];

export function credentialIssuerMetadata(issuerUrl: string) {
  const configurations = Object.fromEntries(
    CREDENTIAL_TYPES.map((type) => {
      const info = CREDENTIAL_CATALOGUE[type];
      return [
        type,
        {
          format: 'dc+sd-jwt',
          vct: vctOf(issuerUrl, type),
          scope: type,
          cryptographic_binding_methods_supported: ['jwk'],
          credential_signing_alg_values_supported: ALGS,
          proof_types_supported: { jwt: { proof_signing_alg_values_supported: ALGS } },
          credential_metadata: {
            display: [{ name: info.name, description: info.description, locale: 'en' }],
            claims: Object.entries(info.claims).map(([claim, meta]) => ({
              path: [claim],
              ...(meta.required ? { mandatory: true } : {}),
              display: [{ name: meta.name, locale: 'en' }],
            })),
          },
        },
      ];
    }),
  );
  return {
    credential_issuer: issuerUrl,
    authorization_servers: [issuerUrl],
    credential_endpoint: `${issuerUrl}/api/oid4vci/credential`,
    nonce_endpoint: `${issuerUrl}/api/oid4vci/nonce`,
    display: [{ name: 'XV Identity', locale: 'en' }],
    credential_configurations_supported: configurations,
  };
}

export function authorizationServerMetadata(issuerUrl: string) {
  return {
    issuer: issuerUrl,
    token_endpoint: `${issuerUrl}/api/oid4vci/token`,
    grant_types_supported: [PRE_AUTHORIZED_GRANT],
    token_endpoint_auth_methods_supported: ['none'],
    response_types_supported: [],
    'pre-authorized_grant_anonymous_access_supported': true,
  };
}
