/**
 * @module errors
 * The JSON errors of the identity service's own, named once. Codes every service
 * shares (`unauthenticated`, `invalid_token`, `not_a_member`, `rate_limited`, …) are
 * the platform's: `platformErrors` and the guard's `guardErrors`.
 */
import { defineErrors } from '@xv/platform';

export const errors = defineErrors('identity', {
  unknown_scope: {
    status: 400,
    message: 'A service client can only be given the scopes XV knows (see `scopes` in this answer).',
  },
  admin_required: { status: 403, message: 'Only an administrator of the organization can do this.' },
  realm_wide_forbidden: {
    status: 403,
    message: 'A service client for every organization of the realm can only be created by an operator.',
  },
  org_query_required: { status: 400, message: 'Give exactly one of org_id or slug.' },
  org_not_found: { status: 404, message: 'No organization has that id or slug.' },
  user_not_found: { status: 404, message: 'No user of this realm has that e-mail address.' },
  already_member: { status: 409, message: 'That user is already a member of the organization.' },
  member_not_found: { status: 404, message: 'That user is not a member of the organization.' },
  last_admin: {
    status: 409,
    message: 'An organization needs an administrator: make someone else one first.',
  },
  no_active_organization: { status: 403, message: 'You belong to no organization.' },
  totp_not_started: { status: 409, message: 'Start the 2FA set-up first.' },
  totp_already_enabled: { status: 409, message: '2FA is already on; turn it off first.' },
  totp_not_enabled: { status: 409, message: '2FA is not on.' },
  invalid_code: { status: 400, message: 'The code is not valid.' },
  passkey_rejected: { status: 400, message: 'The passkey response could not be verified.' },
  step_up_required: {
    status: 403,
    message: 'Changing how you sign in needs you to have proved AAL2 in the last 10 minutes: verify again.',
  },
  password_required: { status: 403, message: 'Enter your password to add a second factor.' },
  wrong_password: { status: 403, message: 'The password is not correct.' },
  second_factor_required: {
    status: 409,
    message:
      'An organization you belong to requires 2FA: add another second factor before removing this one.',
  },
  invitation_not_found: {
    status: 404,
    message: 'This invitation is not valid: it was used, revoked or replaced, or it has expired.',
  },
  invitation_other_account: {
    status: 403,
    message: 'This invitation was sent to another e-mail address: sign in with that address to accept it.',
  },
  session_not_found: { status: 404, message: 'No session of yours has that id.' },
  reset_token_invalid: {
    status: 400,
    message: 'This link is not valid: it was used or replaced, or it has expired. Ask for a new one.',
  },
  service_client_not_found: { status: 404, message: 'No service client has that id.' },
  oidc_client_not_found: { status: 404, message: 'No app of your organization has that client id.' },
  consent_not_found: { status: 404, message: 'You have not allowed an app with that client id.' },
  invalid_redirect_uri: {
    status: 400,
    message:
      'A redirect URI must be an absolute https URL (http only on a loopback host, or a private-use scheme such as com.example.app: for a public app), without a fragment.',
  },
});
