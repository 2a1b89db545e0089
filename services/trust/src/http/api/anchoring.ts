/**
 * @module http/api/anchoring
 * | method | path                            | auth                                                  |
 * |--------|---------------------------------|-------------------------------------------------------|
 * | POST   | /api/anchor                     | none (batched); member / `anchor:write` token: immediate, budgeted |
 * | GET    | /api/anchor/check?txHash=&root= | none (beyond the spec; for the in-browser verifier)   |
 */
import { type App, createRoute, jsonBody, jsonResponse, z } from '@xv/platform/http';
import type { ReceiptAnchors } from '../../anchoring/receipt-anchors.js';
import type { Receipts } from '../../receipts/receipts.js';
import type { SealPolicy } from '../../seal/policy.js';
import type { Callers } from '../callers.js';
import { AnchorResult, Loose, ReceiptId } from '../schemas.js';

const anchorRoute = createRoute({
  method: 'post',
  path: '/api/anchor',
  summary:
    "Anchor a receipt's manifest hash on chain (idempotent; batched unless the caller may anchor at once)",
  request: { body: jsonBody(z.object({ receiptId: ReceiptId })) },
  responses: {
    200: jsonResponse('The anchor result, with the inclusion proof (root, path)', AnchorResult),
    429: jsonResponse(
      "anchor_budget_exhausted: the organization's immediate anchors for today are spent",
      Loose,
    ),
    503: jsonResponse('relayer_low_balance / relayer_unavailable: nothing was sent', Loose),
  },
});

const Hash32 = z.string().regex(/^0x[0-9a-f]{64}$/, 'must be 0x followed by 64 lowercase hex digits');

const anchorCheckRoute = createRoute({
  method: 'get',
  path: '/api/anchor/check',
  summary:
    "Whether the chain holds the relayer's transaction txHash carrying root (for the in-browser verifier)",
  request: { query: z.object({ txHash: Hash32, root: Hash32 }) },
  responses: {
    200: jsonResponse(
      'onChain, with blockNumber and confirmations, or the problem',
      z.object({
        onChain: z.boolean(),
        blockNumber: z.number().nullable(),
        confirmations: z.number(),
        problem: z.string().optional(),
      }),
    ),
  },
});

export function registerAnchorApi(
  app: App,
  o: { receipts: Receipts; anchors: ReceiptAnchors; policy: SealPolicy; callers: Callers },
) {
  app.openapi(anchorRoute, async (c) => {
    const row = await o.receipts.find(c.req.valid('json').receiptId);
    const { hasCredentials, authorize } = o.callers.anchorCredentials(c, row.org_id);
    const mode = await o.policy.anchorMode(hasCredentials, authorize);
    return c.json(await o.anchors.anchor(row.receipt_id, mode), 200);
  });

  app.openapi(anchorCheckRoute, async (c) => {
    const { txHash, root } = c.req.valid('query');
    return c.json(await o.anchors.checkRoot(txHash, root), 200);
  });
}
