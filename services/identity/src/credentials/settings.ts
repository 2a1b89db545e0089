/**
 * @module credentials/settings
 * Settings of the credential issuer, read with the rest of the identity service's.
 */
import { setting, z } from '@xv/platform';

export const credentialSettings = {
  /** Lifetime of an issued credential. */
  credentialDays: setting(
    'XV_IDENTITY_CREDENTIAL_DAYS',
    z.coerce.number().int().min(1).max(3650).default(365),
  ),
  /** How long a wallet offer (its pre-authorized code) can be redeemed. */
  offerSeconds: setting(
    'XV_IDENTITY_OFFER_SECONDS',
    z.coerce.number().int().min(60).max(86_400).default(600),
  ),
};

export type CredentialSettings = {
  [K in keyof typeof credentialSettings]: z.output<(typeof credentialSettings)[K]['schema']>;
};
