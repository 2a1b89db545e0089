/**
 * Our SD-JWT VCs, checked by the reference library: `@sd-jwt/sd-jwt-vc` verifies the
 * issuer signature with the key the issuer publishes and rebuilds the disclosed claims,
 * as an independent verifier would. (Issuance and verification are our own code, for
 * the measured reasons in docs/credentials.md, "Libraries and gaps".)
 */
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { type SignedIn, signUp } from '../src/testing/index.js';
import { issue, startCredentialIdentity } from './credentials-helpers.js';
import { email } from './helpers.js';

describeEachDatabase('credentials, read by the reference SD-JWT VC library', (target) => {
  let svc: RunningService;
  let admin: SignedIn;

  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    admin = await signUp(svc.url, {
      email: email('interop'),
      password: 'secret1',
      name: 'Ada Interop',
      orgName: 'Acme',
    });
  });

  it('verifies an IdentityCredential with the published issuer key and discloses its claims', async () => {
    const { status, body } = await issue(svc, admin.cookie, { type: 'IdentityCredential' });
    expect(status).toBe(200);
    const metadata = await (await svc.fetch('/.well-known/jwt-vc-issuer')).json();
    const keys: { kid: string }[] = metadata.jwks.keys;
    const library = new SDJwtVcInstance({
      hasher: digest,
      verifier: async (data, signature) =>
        keys.some((jwk) =>
          verifySignature(
            'sha256',
            Buffer.from(data),
            { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
            Buffer.from(signature, 'base64url'),
          ),
        ),
    });
    const verified = await library.verify(body.sdjwt);
    expect(verified.payload).toMatchObject({
      iss: body.issuer,
      vct: body.vct,
      email: admin.session.user.email,
      name: 'Ada Interop',
    });
    expect(verified.header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256' });
  });
});
