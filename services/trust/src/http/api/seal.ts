import { type App, access, createRoute, errorResponses, jsonBody, jsonResponse, z } from '@xv/platform/http';
import { errors } from '../../errors.js';
import { MAX_TIER, type SealPolicy } from '../../seal/policy.js';
import type { Sealing } from '../../seal/sealing.js';
import type { Callers } from '../callers.js';
import { IssuerId, Receipt, requiredJson, signerErrors } from '../schemas.js';

const sealRoute = createRoute({
  method: 'post',
  path: '/api/seal',
  summary: 'Seal a record or AI result: signed manifest and receipt',
  description:
    'A member of the issuing organization, or a service token with `seal:issue` for it, signs as that organization; without credentials, only in demo mode, the demo issuer signs.',
  security: [...access.sessionOrServiceToken('seal:issue'), {}],
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
      {
        example: {
          modelId: 'llama-3.1-8b-instruct',
          output: { answer: 'Orders ship within two business days.' },
          input: { question: 'When do orders ship?' },
          storeInput: false,
          tier: 1,
          anchorNow: false,
          issuerId: 'org_acme',
        },
      },
    ),
  },
  responses: {
    200: jsonResponse('The seal receipt', Receipt),
    ...errorResponses(...signerErrors, errors.too_deep, errors.stepup_required, errors.input_too_large),
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
