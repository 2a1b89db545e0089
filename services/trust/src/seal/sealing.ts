/**
 * @module seal/sealing
 * A seal request from start to end: the policy's checks, the receipt, and the
 * anchor asked for with `anchorNow` (whose failure never undoes the seal).
 */
import type { Logger } from '@xv/platform';
import type { ReceiptAnchors } from '../anchoring/receipt-anchors.js';
import type { Receipts } from '../receipts/receipts.js';
import type { ReceiptView } from '../receipts/views.js';
import type { SealPolicy, Signer } from './policy.js';

export interface SealInput {
  modelId: string;
  output: unknown;
  input?: unknown;
  storeInput?: boolean;
  tier: number;
  anchorNow?: boolean;
}

export class Sealing {
  constructor(private readonly o: { policy: SealPolicy; receipts: Receipts; anchors: ReceiptAnchors }) {}

  /** Seals for `signer`; `stepUpUrl` is where a person steps up when the tier needs it. */
  async seal(
    request: SealInput,
    signer: Signer,
    context: { stepUpUrl: () => string; logger: Logger },
  ): Promise<ReceiptView> {
    const { issuer, authLevel } = signer;
    this.o.policy.requireAssurance(request.tier, authLevel, context.stepUpUrl);
    const receipt = await this.o.receipts.seal({
      issuer,
      authLevel,
      modelId: request.modelId,
      output: request.output,
      input: request.input,
      storeInput: request.storeInput === true,
      tier: request.tier,
    });
    if (request.anchorNow) {
      try {
        receipt.anchor = await this.o.anchors.anchorNow(
          receipt.receiptId,
          this.o.policy.anchorNowMode(issuer),
        );
      } catch (error) {
        // The seal stands; anchoring can be asked for again with POST /api/anchor.
        context.logger.warn({ err: error, receiptId: receipt.receiptId }, 'anchorNow failed');
        receipt.anchor = { mode: 'none', error: 'relayer_unavailable' };
      }
    }
    return receipt;
  }
}
