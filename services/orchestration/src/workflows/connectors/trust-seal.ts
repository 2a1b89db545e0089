/**
 * @module workflows/connectors/trust-seal
 * `trust.seal`: seals a result with the trust service (`POST /api/seal`). With
 * `XV_ORCH_TRUST_TOKEN` (an identity service token with `seal:issue`) the seal is
 * signed by that token's organization; without it, only a trust service in demo
 * mode (`XV_TRUST_DEMO=1`) seals, as its demo issuer. Output: the seal receipt.
 */
import { z } from '@xv/platform';
import { defineConnector } from './connector.js';
import { callHttp } from './fetch.js';

export function trustSealConnector(options: { trustUrl: string; token: string | undefined }) {
  return defineConnector({
    name: 'trust.seal',
    description: 'Seals an output with the trust service; output the seal receipt.',
    params: z.strictObject({
      modelId: z.string().min(1).max(200),
      output: z.unknown().refine((v) => v !== undefined && v !== null && v !== '', 'output is empty'),
      input: z.record(z.string(), z.unknown()).optional(),
      tier: z.coerce.number().int().min(1).max(3).optional(),
      anchorNow: z.boolean().optional(),
      /** The trust service's demo issuer, or an organization the credential may seal for. */
      issuerId: z.string().min(1).max(100).optional(),
    }),
    async run(params, { signal }) {
      const { body } = await callHttp('The trust service', `${options.trustUrl}/api/seal`, {
        method: 'POST',
        ...(options.token ? { headers: { authorization: `Bearer ${options.token}` } } : {}),
        body: params,
        signal,
      });
      return body;
    },
  });
}
