/**
 * @module credentials/sd-jwt/library
 * The `@sd-jwt/sd-jwt-vc` issuer: it packs the Disclosures and signs the
 * credential, with ES256 on node:crypto and the SHA-256 hasher and salts of
 * `@sd-jwt/crypto-nodejs`. Verification does not go through the library (see
 * verification/verifier.ts and docs/credentials.md, "Libraries and gaps").
 */
import type { KeyObject } from 'node:crypto';
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance, type SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import { es256Signature, isJsonObject, type JsonObject } from './jws.js';
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
