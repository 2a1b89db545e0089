/**
 * @module credentials/errors
 * Every JSON error of the credential endpoints (issue, verify, revoke, offer, type
 * metadata, offers by reference), named once. The wallet endpoints answer in OAuth's format instead
 * (see oid4vci/oauth-error).
 */
import { defineErrors } from '@xv/platform';

export const credentialErrors = defineErrors('identity', {
  unknown_type: {
    status: 400,
    message:
      'The credential type must be IdentityCredential, MembershipCredential or OrganizationAttestation.',
  },
  type_required: { status: 400, message: 'Give the credential type as type (or types for several).' },
  org_required: { status: 400, message: 'This credential type needs org_id (or an active organization).' },
  claims_not_allowed: { status: 400, message: 'claims can only be given for an OrganizationAttestation.' },
  invalid_claims: {
    status: 400,
    message:
      'claims must be an object of at most 32 entries, named with letters, digits, _ . : or -, 8 KiB at most.',
  },
  credential_required: {
    status: 400,
    message: 'Send the SD-JWT to verify as token (sdjwt and credential are accepted too).',
  },
  service_client_not_allowed: {
    status: 403,
    message: 'A service client can only issue OrganizationAttestation credentials.',
  },
  admin_required: { status: 403, message: 'Only an administrator of the organization can do this.' },
  not_credential_owner: { status: 403, message: 'Only the owner of the credential can revoke it.' },
  org_not_found: { status: 404, message: 'No organization of this realm has that id.' },
  credential_not_found: { status: 404, message: 'No credential has that id.' },
  user_not_found: { status: 404, message: 'No user has that id.' },
  status_list_not_found: { status: 404, message: 'There is no status list at this address.' },
  unknown_credential_type: { status: 404, message: 'There is no credential type of that name.' },
  offer_not_found: { status: 404, message: 'There is no credential offer at this address.' },
  offer_already_fetched: {
    status: 410,
    message: 'This credential offer was already fetched by a wallet; create a new offer.',
  },
  offer_expired: { status: 410, message: 'This credential offer has expired; create a new offer.' },
});
