/**
 * @module credentials/sd-jwt/library
 * The `@sd-jwt/sd-jwt-vc` instances the issuer and the verifier use: ES256 on
 * node:crypto signs and verifies the Issuer-signed JWT, `@sd-jwt/crypto-nodejs`
 * hashes Disclosures (SHA-256) and makes their salts. The library packs and signs
 * credentials and checks the issuer signature with `iat`/`nbf`/`exp`; what it
 * leaves to its caller is in verification/verifier.ts.
 */
import { KeyObject } from 'node:crypto';
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance, type SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import { es256Signature, fromB64url, isJsonObject, type JsonObject, verifyEs256 } from './jws.js';
import { SD_ALG } from './sd-jwt.js';

/** The payload of our credentials: an SD-JWT VC whose one nested object is `claims` (an attestation's own). */
export type CredentialPayload = SdJwtVcPayload & { claims?: JsonObject };

/** The library's disclosure frame for it: which claims (and which of `claims`' members) are disclosable. */
export interface CredentialDisclosureFrame {
  _sd: string[];
  claims?: { _sd: string[] };
}

type LibraryFrame = NonNullable<Parameters<SDJwtVcInstance['issue']>[1]>;

/** Packs and signs a credential: `frame` is the library's documented frame shape. */
export function issueSdJwtVc(
  instance: SDJwtVcInstance,
  payload: CredentialPayload,
  frame: CredentialDisclosureFrame,
  header: JsonObject,
): Promise<string> {
  // The library's frame type cannot name a nested object's members when the payload has an
  // index signature (its `_sd` fails a weak-type check), so the frame is handed over as its type.
  return instance.issue(payload, frame as LibraryFrame, { header });
}

/** An issuer instance signing with `privateKey`. */
export function sdJwtIssuer(privateKey: KeyObject): SDJwtVcInstance {
  return new SDJwtVcInstance({
    signer: (signingInput) => es256Signature(signingInput, privateKey),
    signAlg: 'ES256',
    hasher: digest,
    hashAlg: SD_ALG,
    saltGenerator: generateSalt,
  });
}

/** The options that carry the issuer key to the library's verifier callback. */
export interface IssuerKeyOption {
  issuerKey: KeyObject;
}

function issuerKeyOf(options: unknown): KeyObject | undefined {
  return isJsonObject(options) && options.issuerKey instanceof KeyObject ? options.issuerKey : undefined;
}

/** One verifying instance for every key: the key of a credential is passed with each call. */
export function sdJwtValidator(): SDJwtVcInstance {
  return new SDJwtVcInstance({
    hasher: digest,
    hashAlg: SD_ALG,
    verifier: (signingInput, signature, options) => {
      const key = issuerKeyOf(options);
      const bytes = fromB64url(signature);
      return key !== undefined && bytes !== null && verifyEs256({ signingInput, signature: bytes }, key);
    },
  });
}

/** The frame of a credential type: `disclosable` top-level claims, and every member of the `nested` ones. */
export function disclosureFrame(
  claims: JsonObject,
  disclosable: readonly string[],
  nested: readonly 'claims'[],
): CredentialDisclosureFrame {
  const frame: CredentialDisclosureFrame = { _sd: disclosable.filter((name) => Object.hasOwn(claims, name)) };
  const inner = claims.claims;
  if (nested.includes('claims') && isJsonObject(inner)) frame.claims = { _sd: Object.keys(inner) };
  return frame;
}
