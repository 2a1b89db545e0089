/**
 * @module http/api/receipts
 * Receipts and their verification:
 *
 * | method | path                            | auth                         |
 * |--------|---------------------------------|------------------------------|
 * | GET    | /api/verify?receiptId=          | none                         |
 * | POST   | /api/verify                     | none (a proof, no source data) |
 * | GET    | /api/receipts/{receiptId}       | none (beyond the spec)       |
 * | GET    | /api/receipts/{receiptId}/proof | none: the manifest as a file |
 */
import { type App, access, createRoute, errorResponses, jsonBody, jsonResponse, z } from '@xv/platform/http';
import { assertJsonDepth } from '../../crypto/canonical.js';
import { errors } from '../../errors.js';
import type { Receipts } from '../../receipts/receipts.js';
import { asP256Jwk } from '../../seal/verify.js';
import { proofVerificationExample, receiptExample } from '../examples.js';
import { Loose, Receipt, ReceiptId, Verification } from '../schemas.js';

const verifyReceiptRoute = createRoute({
  method: 'get',
  path: '/api/verify',
  summary: 'Verify a receipt: signatures, integrity, issuer and anchor',
  security: access.public,
  request: { query: z.object({ receiptId: ReceiptId }) },
  responses: {
    200: jsonResponse('The verification result', Verification),
    ...errorResponses(errors.receipt_not_found),
  },
});

const verifyProofRoute = createRoute({
  method: 'post',
  path: '/api/verify',
  summary: 'Verify a proof (a serialized manifest) without the source data',
  security: access.public,
  request: {
    body: jsonBody(
      z.object({
        proof: z.union([z.string().min(1), Loose]),
        publicJwk: Loose.optional(),
      }),
      {
        example: { proof: JSON.stringify(receiptExample.manifest) },
      },
    ),
  },
  responses: {
    200: jsonResponse(
      'The verification result; a proof that fails is still a 200',
      Verification,
      proofVerificationExample,
    ),
    ...errorResponses(errors.invalid_proof, errors.invalid_public_key, errors.too_deep),
  },
});

const receiptRoute = createRoute({
  method: 'get',
  path: '/api/receipts/{receiptId}',
  summary: 'A seal receipt',
  security: access.public,
  request: { params: z.object({ receiptId: ReceiptId }) },
  responses: { 200: jsonResponse('The seal receipt', Receipt), ...errorResponses(errors.receipt_not_found) },
});

const proofRoute = createRoute({
  method: 'get',
  path: '/api/receipts/{receiptId}/proof',
  summary: 'Download the proof (the manifest) of a receipt as a file',
  security: access.public,
  request: { params: z.object({ receiptId: ReceiptId }) },
  responses: {
    200: jsonResponse('The manifest {claim, manifestHash, signatures}', Loose, receiptExample.manifest),
    ...errorResponses(errors.receipt_not_found),
  },
});

/** The verification routes (`/api/verify`). */
export function registerVerifyApi(app: App, receipts: Receipts) {
  app.openapi(verifyReceiptRoute, async (c) =>
    c.json(await receipts.verifyReceipt(c.req.valid('query').receiptId), 200),
  );

  app.openapi(verifyProofRoute, async (c) => {
    const { proof, publicJwk } = c.req.valid('json');
    // JSON.stringify recurses: a hostile 10,000-deep proof object would overflow the stack.
    if (typeof proof !== 'string') assertJsonDepth(proof);
    const text = typeof proof === 'string' ? proof : JSON.stringify(proof);
    return c.json(await receipts.verifyProof(text, publicJwk ? asP256Jwk(publicJwk) : undefined), 200);
  });
}

/** The receipt routes (`/api/receipts/…`). */
export function registerReceiptApi(app: App, receipts: Receipts) {
  app.openapi(receiptRoute, async (c) =>
    c.json(receipts.view(await receipts.find(c.req.valid('param').receiptId)), 200),
  );

  app.openapi(proofRoute, async (c) => {
    const row = await receipts.find(c.req.valid('param').receiptId);
    c.header('Content-Disposition', `attachment; filename="${row.receipt_id}.proof.json"`);
    return c.json(receipts.proofOf(row), 200);
  });
}
