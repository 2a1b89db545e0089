/**
 * @module errors
 * Every error the trust service answers with.
 */
import { defineErrors } from '@xv/platform';

export const errors = defineErrors('trust', {
  stepup_required: {
    status: 403,
    message: 'This tier needs phishing-resistant sign-in (AAL3, a passkey): step up first.',
  },
  no_organization: { status: 403, message: 'You belong to no organization that could issue this.' },
  demo_only: { status: 403, message: 'Without a session only the demo issuer can sign, in demo mode.' },
  issuer_required: { status: 400, message: 'Name the issuing organization in `issuerId`.' },
  unknown_issuer: { status: 404, message: 'The identity service knows no such organization.' },
  too_deep: { status: 400, message: 'The JSON value is nested too deeply.' },
  input_too_large: { status: 413, message: 'The input is too large to be stored.' },
  invalid_proof: { status: 400, message: 'The proof is not a serialized manifest ({claim, signatures}).' },
  invalid_public_key: { status: 400, message: 'publicJwk must be an EC P-256 public JWK (kty, crv, x, y).' },
  receipt_not_found: { status: 404, message: 'No receipt has that id.' },
  attestation_not_found: { status: 404, message: 'No attestation has that id.' },
  relayer_unavailable: { status: 503, message: 'The chain relayer cannot anchor right now; try again.' },
  relayer_low_balance: {
    status: 503,
    message:
      'The chain relayer is short of funds: anchors wait in its queue until it is funded; try again later.',
  },
  anchor_budget_exhausted: {
    status: 429,
    message:
      "The organization's immediate anchors for today are spent; anchor without credentials to join the next batch.",
  },
  invalid_subject: {
    status: 400,
    message:
      'The subject must be an EVM address (0x + 40 hex digits, checksummed when mixed case), a DID (did:method:id) or an XV id (usr_…, org_…).',
  },
  eas_unavailable: {
    status: 503,
    message: 'No EAS contracts are known on the chain: the relayer needs XV_CHAIN_EAS_ADDRESS there.',
  },
  onchain_attestation_rejected: { status: 422, message: 'The EAS contract refused the attestation.' },
  identity_unavailable: { status: 503, message: 'The identity service cannot be reached.' },
});
