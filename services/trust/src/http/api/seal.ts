/**
 * @module http/api/seal
 * `POST /api/seal`: seal a record or AI result (seal/policy.ts says who signs and
 * which sign-in a tier needs).
 */
import { type App, createRoute, jsonBody, jsonResponse, z } from '@xv/platform/http';
import { MAX_TIER, type SealPolicy } from '../../seal/policy.js';
import type { Sealing } from '../../seal/sealing.js';
import type { Callers } from '../callers.js';
import { IssuerId, Loose, Receipt, requiredJson } from '../schemas.js';

const sealRoute = createRoute({
  method: 'post',
  path: '/api/seal',
  summary: 'Seal a record or AI result: signed manifest and receipt',
  request: {
    body: jsonBody(
      z.object({
        modelId: z.string().min(1).max(200),
        output: requiredJson('output'),
        input: z.unknown().optional(),
        storeInput: z.boolean().optional(),
        tier: z.number().int().min(1).max(MAX_TIER).default(1),
        anchorNow: z.boolean().optional(),
        issuerId: IssuerId.optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse('The seal receipt', Receipt),
    403: jsonResponse('stepup_required: tier 2 and above need AAL3 (stepUpUrl says where)', Loose),
  },
});

export function registerSealApi(app: App, o: { policy: SealPolicy; sealing: Sealing; callers: Callers }) {
  app.openapi(sealRoute, async (c) => {
    const request = c.req.valid('json');
    const signer = await o.policy.signer(o.callers.signerRequest(c, request.issuerId, 'seal:issue'));
    const receipt = await o.sealing.seal(request, signer, {
      stepUpUrl: () => o.callers.stepUpUrl(c),
      logger: c.get('logger'),
    });
    return c.json(receipt, 200);
  });
}
