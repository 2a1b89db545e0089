/**
 * @module http/api/anchoring
 * | method | path                            | auth                                                  |
 * |--------|---------------------------------|-------------------------------------------------------|
 * | POST   | /api/anchor                     | none (batched); member / `anchor:write` token: immediate, budgeted |
 * | GET    | /api/anchor/check?txHash=&root= | none (beyond the spec; for the in-browser verifier)   |
 */
import { type App, access, createRoute, errorResponses, jsonBody, jsonResponse, z } from '@xv/platform/http';
import type { ReceiptAnchors } from '../../anchoring/receipt-anchors.js';
import { errors } from '../../errors.js';
import type { Receipts } from '../../receipts/receipts.js';
import type { SealPolicy } from '../../seal/policy.js';
import type { Callers } from '../callers.js';
import { AnchorResult, ReceiptId } from '../schemas.js';

const anchorRoute = createRoute({
  method: 'post',
  path: '/api/anchor',
  summary:
    "Anchor a receipt's manifest hash on chain (idempotent; batched unless the caller may anchor at once)",
  description:
    "Anyone may ask: the hash joins the next batch. A member of the receipt's organization, or a service token with `anchor:write` for it, anchors at once within the organization's daily budget; credentials that do not cover it are batched too.",
  security: [...access.sessionOrServiceToken('anchor:write'), {}],
  request: {
    body: jsonBody(z.object({ receiptId: ReceiptId }), {
      example: { receiptId: 'rcpt_ybq6ha7g7y4t1fzb8qjaat014g' },
    }),
  },
  responses: {
    200: jsonResponse('The anchor result, with the inclusion proof (root, path)', AnchorResult),
    ...errorResponses(
      errors.receipt_not_found,
      errors.anchor_budget_exhausted,
      errors.relayer_low_balance,
      errors.relayer_unavailable,
    ),
  },
});

const Hash32 = z
  .string()
  .regex(/^0x[0-9a-f]{64}$/, 'must be 0x followed by 64 lowercase hex digits')
  .openapi({ example: '0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' });

const anchorCheckRoute = createRoute({
  method: 'get',
  path: '/api/anchor/check',
  summary:
    "Whether the chain holds the relayer's transaction txHash carrying root (for the in-browser verifier)",
  security: access.public,
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
