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
  batch_not_sent: {
    status: 503,
    message: 'The batch holding this fingerprint was not sent in time; it stays queued, ask again.',
  },
});
