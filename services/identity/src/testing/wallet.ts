/**
 * @module testing/wallet
 * A wallet written by others: `@openid4vc/openid4vci` redeems an OpenID4VCI offer
 * (pre-authorized code, PIN) with a P-256 holder key of its own, and the wallet
 * presents the credential with a Key Binding JWT, as it shows it to a verifier.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { Openid4vciClient, setGlobalConfig } from '@openid4vc/openid4vci';
import { CompactSign } from 'jose';

interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface Wallet {
  publicJwk: PublicJwk;
  /**
   * Redeems the first configuration `openid-credential-offer://…` offers (by value or by
   * reference), with the PIN;
   * the configurations offered and the SD-JWT received.
   */
  redeem(offerUri: string, pin: string | undefined): Promise<{ configurationIds: string[]; sdjwt: string }>;
  /** The credential with a Key Binding JWT over the verifier's `nonce` and `aud`. */
  present(sdjwt: string, verifier: { nonce: string; aud: string }): Promise<string>;
}

const sign = (header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject) =>
  new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ ...header, alg: 'ES256' })
    .sign(key);

export function newWallet(): Wallet {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { x, y } = publicKey.export({ format: 'jwk' });
  const publicJwk: PublicJwk = { kty: 'EC', crv: 'P-256', x: x!, y: y! };
  const client = new Openid4vciClient({
    callbacks: {
      fetch,
      hash: (data, alg) =>
        new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
      generateRandom: (length) => new Uint8Array(randomBytes(length)),
      clientAuthentication: () => {},
      signJwt: async (signer, { header, payload }) => {
        if (signer.method !== 'jwk') throw new Error('this wallet signs with its own JWK only');
        return { jwt: await sign(header, payload, privateKey), signerJwk: signer.publicJwk };
      },
    },
  });

  return {
    publicJwk,
    async redeem(offerUri, pin) {
      // The platform under test speaks plain http on loopback.
      setGlobalConfig({ allowInsecureUrls: true });
      try {
        const credentialOffer = await client.resolveCredentialOffer(offerUri);
        const configurationIds = credentialOffer.credential_configuration_ids;
        const configurationId = configurationIds[0]!;
        const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
        const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
          credentialOffer,
          issuerMetadata,
          ...(pin ? { txCode: pin } : {}),
        });
        // As OpenID4VCI 1.0 has it: the proof's nonce comes from the nonce endpoint.
        const { c_nonce: nonce } = await client.requestNonce({ issuerMetadata });
        const { jwt } = await client.createCredentialRequestJwtProof({
          issuerMetadata,
          credentialConfigurationId: configurationId,
          signer: { method: 'jwk', alg: 'ES256', publicJwk: { ...publicJwk } },
          nonce,
        });
        const { credentialResponse } = await client.retrieveCredentials({
          issuerMetadata,
          accessToken: accessTokenResponse.access_token,
          credentialConfigurationId: configurationId,
          proofs: { jwt: [jwt] },
        });
        const first = credentialResponse.credentials?.[0];
        const sdjwt = typeof first === 'object' && 'credential' in first ? first.credential : undefined;
        if (typeof sdjwt !== 'string') throw new Error('the wallet received no SD-JWT');
        return { configurationIds, sdjwt };
      } finally {
        setGlobalConfig({ allowInsecureUrls: false });
      }
    },
    async present(sdjwt, verifier) {
      // RFC 9901: the KB-JWT signs over the presentation (issuer JWT and Disclosures, ending in `~`).
      const presentation = sdjwt.endsWith('~') ? sdjwt : `${sdjwt}~`;
      const sdHash = createHash('sha256').update(presentation, 'ascii').digest('base64url');
      const kbJwt = await sign(
        { typ: 'kb+jwt' },
        { iat: Math.floor(Date.now() / 1000), aud: verifier.aud, nonce: verifier.nonce, sd_hash: sdHash },
        privateKey,
      );
      return `${presentation}${kbJwt}`;
    },
  };
}
