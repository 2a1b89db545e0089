/**
 * @module http/api/attestations
 * | method | path                   | auth                                   |
 * |--------|------------------------|----------------------------------------|
 * | POST   | /api/attestation       | member / `attest:issue` token, or demo |
 * | GET    | /api/attestations/{id} | none (beyond the spec)                 |
 */
import { type App, access, createRoute, errorResponses, jsonBody, jsonResponse, z } from '@xv/platform/http';
import type { Attestations } from '../../attestations/attestations.js';
import { errors } from '../../errors.js';
import type { SealPolicy } from '../../seal/policy.js';
import type { Callers } from '../callers.js';
import { AttestationId, IssuerId, Loose, requiredJson, signerErrors } from '../schemas.js';

const OnchainAttestation = z
  .object({
    uid: z.string(),
    txHash: z.string(),
    blockNumber: z.number(),
    attester: z.string(),
    chainId: z.number(),
    eas: z.string(),
  })
  .openapi('OnchainAttestation', {
    description: 'The attestation as the EAS contract holds it (`getAttestation(uid)`)',
  });

const attestationRoute = createRoute({
  method: 'post',
  path: '/api/attestation',
  summary:
    'Issue an EAS attestation signed by the issuer: off chain (version 2), and on chain too with `onchain: true`',
  description:
    'A member of the issuing organization, or a service token with `attest:issue` for it, attests as that organization; without credentials, only in demo mode, the demo issuer attests.',
  security: [...access.sessionOrServiceToken('attest:issue'), {}],
  request: {
    body: jsonBody(
      z.object({
        schema: z.string().min(1).max(500),
        subject: z.string().min(1).max(500).openapi({
          description: 'An EVM address, a DID or an XV id (`usr_…`); anything else is 400 invalid_subject',
        }),
        claim: requiredJson('claim'),
        issuerId: IssuerId.optional(),
        onchain: z.boolean().default(false).openapi({
          description: 'Also attest on chain (EAS attestByDelegation, submitted by the relayer)',
        }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      'The attestation result and the full signed object',
      z.object({
        attestationId: z.string(),
        digest: z.string(),
        sig: z.string(),
        verifyUrl: z.string(),
        uid: z.string(),
        attester: z.string(),
        issuerId: z.string(),
        attestation: Loose,
        onchain: OnchainAttestation.optional(),
      }),
    ),
    ...errorResponses(
      ...signerErrors,
      errors.too_deep,
      errors.invalid_subject,
      errors.onchain_attestation_rejected,
      errors.eas_unavailable,
      errors.relayer_unavailable,
    ),
  },
});

const attestationGetRoute = createRoute({
  method: 'get',
  path: '/api/attestations/{attestationId}',
  summary: 'An attestation, with its signature checked',
  security: access.public,
  request: { params: z.object({ attestationId: AttestationId }) },
  responses: {
    200: jsonResponse('The attestation', Loose),
    ...errorResponses(errors.attestation_not_found),
  },
});

/** `POST /api/attestation`. */
export function registerAttestationApi(
  app: App,
  o: { attestations: Attestations; policy: SealPolicy; callers: Callers },
) {
  app.openapi(attestationRoute, async (c) => {
    const request = c.req.valid('json');
    const { issuer } = await o.policy.signer(o.callers.signerRequest(c, request.issuerId, 'attest:issue'));
    return c.json(await o.attestations.issue(issuer, request), 200);
  });
}

/** `GET /api/attestations/{id}`. */
export function registerAttestationReadApi(app: App, attestations: Attestations) {
  app.openapi(attestationGetRoute, async (c) => {
    const { row, attestation, onchain, valid, signatureValid, issuerVerified, reason } =
      await attestations.find(c.req.valid('param').attestationId);
    return c.json(
      {
        attestationId: row.attestation_id,
        issuerId: row.org_id,
        schema: row.schema,
        subject: row.subject,
        digest: row.digest,
        uid: row.uid,
        attester: row.attester,
        valid,
        signatureValid,
        issuerVerified,
        ...(reason ? { reason } : {}),
        attestation,
        ...(onchain ? { onchain } : {}),
      },
      200,
    );
  });
}
