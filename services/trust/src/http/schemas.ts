/**
 * @module http/schemas
 * The request and response shapes more than one API area shares (OpenAPI components).
 */
import { guardErrors, platformErrors } from '@xv/platform';
import { z } from '@xv/platform/http';
import { errors } from '../errors.js';
import { receiptExample, verificationExample } from './examples.js';

/** Who signs a seal or an attestation (seal/policy.ts): the refusals on the way. */
export const signerErrors = [
  errors.issuer_required,
  platformErrors.unauthenticated,
  guardErrors.invalid_token,
  errors.no_organization,
  errors.demo_only,
  guardErrors.not_a_member,
  guardErrors.insufficient_scope,
  guardErrors.wrong_organization,
  errors.unknown_issuer,
  platformErrors.rate_limited,
  errors.identity_unavailable,
] as const;

/** Any JSON value, but present (a missing `output` or `claim` is a 400). */
export const requiredJson = (name: string) =>
  z.unknown().refine((value) => value !== undefined, { message: `${name} is required` });

export const ReceiptId = z
  .string()
  .regex(/^rcpt_[0-9a-z]{26}$/, 'must be a receipt id (rcpt_…)')
  .openapi({ example: 'rcpt_ybq6ha7g7y4t1fzb8qjaat014g' });
export const AttestationId = z
  .string()
  .regex(/^att_[0-9a-z]{26}$/, 'must be an attestation id (att_…)')
  .openapi({ example: 'att_01j2k8m4n6p8q0r2s4t6v8w0xy' });
export const IssuerId = z.string().min(1).max(64).openapi({ example: 'org_acme' });
export const Loose = z.record(z.string(), z.unknown());

export const AnchorResult = z
  .object({
    mode: z.string(),
    txHash: z.string(),
    ref: z.string(),
    explorerUrl: z.string(),
    version: z.number(),
    root: z.string(),
    path: z.array(z.string()),
  })
  .openapi('AnchorResult');

export const Receipt = z
  .object({
    receiptId: z.string(),
    outputHash: z.string(),
    inputHash: z.string().optional(),
    manifestHash: z.string(),
    issuerId: z.string(),
    issuerName: z.string(),
    identityVerified: z.boolean(),
    authLevel: z.string(),
    tier: z.number(),
    modelId: z.string(),
    issuedAt: z.string(),
    keyId: z.string(),
    p256Sig: z.string(),
    ethSig: z.string(),
    anchor: Loose,
    manifest: Loose,
    verifyUrl: z.string(),
    proofUrl: z.string(),
  })
  .openapi('SealReceipt', { example: receiptExample });

export const Verification = z
  .object({
    status: z.string(),
    valid: z.boolean(),
    signatureValid: z.boolean(),
    issuerVerified: z.boolean(),
    integrity: z.string(),
    manifestHash: z.string(),
    issuer: Loose,
    checks: Loose,
    reason: z.string().optional(),
    message: z.string().optional(),
    anchor: Loose.optional(),
    receiptId: z.string().optional(),
  })
  .openapi('VerificationResult', { example: verificationExample });
