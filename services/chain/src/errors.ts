/**
 * @module errors
 * Every error the relayer answers with.
 */
import { defineErrors } from '@xv/platform';

export const errors = defineErrors('chain', {
  anchor_not_found: { status: 404, message: 'No anchor exists for that hash.' },
  transaction_not_found: { status: 404, message: 'The chain does not know that transaction.' },
  chain_unavailable: { status: 503, message: 'The EVM node cannot be reached.' },
  relayer_low_balance: {
    status: 503,
    message:
      'The relayer balance is below its floor: it sends nothing until funded; queued fingerprints wait.',
  },
  eas_not_configured: {
    status: 503,
    message:
      'This chain has no EAS contracts the relayer knows of: set XV_CHAIN_EAS_ADDRESS (and XV_CHAIN_SCHEMA_REGISTRY_ADDRESS).',
  },
  eas_call_rejected: {
    status: 422,
    message: 'The EAS contract refused the call (a bad signature, an unknown schema, an expired deadline…).',
  },
  batch_not_sent: {
    status: 503,
    message: 'The batch holding this fingerprint was not sent in time; it stays queued, ask again.',
  },
});
