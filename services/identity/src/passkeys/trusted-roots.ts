/**
 * @module passkeys/trusted-roots
 * `XV_IDENTITY_PASSKEY_TRUSTED_ROOTS`: the authenticator attestation roots an operator trusts (PEM text, or the
 * path of a PEM file, holding one or more certificates). When set, a new passkey must come with an attestation
 * whose certificate chain leads to one of them: `none` and self attestation are refused, so only authenticators
 * of the vendors (or the fleet) the operator chose can be registered.
 */

import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  convertCertBufferToPEM,
  decodeAttestationObject,
  validateCertificatePath,
} from '@simplewebauthn/server/helpers';
import { z } from '@xv/platform';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** PEM text or a file path → the list of PEM certificates, each checked to parse. */
export const trustedRootsSetting = () =>
  z
    .string()
    .min(1)
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return null;
      let text = value;
      if (!value.includes('-----BEGIN')) {
        try {
          text = readFileSync(value, 'utf8');
        } catch {
          ctx.addIssue({ code: 'custom', message: 'names no readable PEM file' });
          return z.NEVER;
        }
      }
      const roots = text.match(PEM_CERTIFICATE) ?? [];
      if (roots.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'holds no PEM certificate' });
        return z.NEVER;
      }
      for (const root of roots) {
        try {
          new X509Certificate(root);
        } catch {
          ctx.addIssue({ code: 'custom', message: 'holds a certificate that does not parse' });
          return z.NEVER;
        }
      }
      return roots;
    });

/**
 * True when the registration's attestation statement carries a certificate chain (x5c) that leads to one of
 * `roots`. @simplewebauthn has already checked the statement's signature against the chain's first
 * certificate; this adds the path to a root the operator trusts.
 */
export async function attestedByTrustedRoot(
  attestationObject: Uint8Array,
  roots: string[],
): Promise<boolean> {
  const decoded = decodeAttestationObject(attestationObject as never);
  if (decoded.get('fmt') === 'none') return false;
  const x5c = decoded.get('attStmt').get('x5c');
  if (!x5c || x5c.length === 0) return false; // self attestation: the credential vouches for itself
  try {
    return await validateCertificatePath(
      x5c.map((cert) => convertCertBufferToPEM(cert)),
      roots,
    );
  } catch {
    return false;
  }
}
