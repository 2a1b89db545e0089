/**
 * @module routes/api
 * The trust service's JSON API. Reads like the spec's table:
 *
 * | method | path                            | auth                                  |
 * |--------|---------------------------------|---------------------------------------|
 * | POST   | /api/seal                       | SSO session (or demo mode)            |
 * | GET    | /api/verify?receiptId=          | none                                  |
 * | POST   | /api/verify                     | none                                  |
 * | POST   | /api/anchor                     | none (batched); member / `anchor:write` token: immediate, budgeted |
 * | GET    | /api/anchor/check?txHash=&root= | none (beyond the spec)                |
 * | POST   | /api/attestation                | member / `attest:issue` token, or demo |
 * | GET    | /api/keys/jwks                  | none                                  |
 * | GET    | /api/receipts/{receiptId}       | none (beyond the spec)                |
 * | GET    | /api/receipts/{receiptId}/proof | none: the manifest as a file          |
 * | GET    | /api/attestations/{id}          | none (beyond the spec)                |
 *
 * Seals, attestations and anchor requests spend a per-client budget (routes/rate-limits.ts).
 */
import {
  type App,
  type AuthGuard,
  bearerToken,
  createRoute,
  isSharedDomainOrigin,
  publicCors,
  sharedDomainCors,
  z,
} from '@xv/platform/http';
import type { ServiceContext } from '@xv/platform/service';
import type { Context } from 'hono';
import type { Attestations } from '../attestations/attestations.js';
import { assertJsonDepth } from '../crypto/canonical.js';
import { errors } from '../errors.js';
import type { Issuer, IssuerDirectory } from '../issuers/directory.js';
import type { PublishedKeys } from '../issuers/published-keys.js';
import { MAX_TIER, needsStepUp } from '../seal/policy.js';
import type { AnchorMode, Receipts } from '../seal/receipts.js';
import { asP256Jwk } from '../seal/verify.js';
import { limitPosts, spend, type TrustRateLimits } from './rate-limits.js';

export interface ApiOptions {
  ctx: ServiceContext;
  receipts: Receipts;
  attestations: Attestations;
  publishedKeys: PublishedKeys;
  directory: IssuerDirectory;
  guard: AuthGuard;
  demo: boolean;
  limits: TrustRateLimits;
}

const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { 'application/json': { schema } },
});
const body = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
});

/** Any JSON value, but present (a missing `output` or `claim` is a 400). */
const requiredJson = (name: string) =>
  z.unknown().refine((value) => value !== undefined, { message: `${name} is required` });

const ReceiptId = z.string().regex(/^rcpt_[0-9a-z]{26}$/, 'must be a receipt id (rcpt_…)');
const AttestationId = z.string().regex(/^att_[0-9a-z]{26}$/, 'must be an attestation id (att_…)');
const IssuerId = z.string().min(1).max(64);
const Loose = z.record(z.string(), z.unknown());

const AnchorResult = z
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
const Receipt = z
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
  .openapi('SealReceipt');
const Verification = z
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
  .openapi('VerificationResult');

const sealRoute = createRoute({
  method: 'post',
  path: '/api/seal',
  summary: 'Seal a record or AI result: signed manifest and receipt',
  request: body(
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
  responses: {
    200: json('The seal receipt', Receipt),
    403: json('stepup_required: tier 2 and above need AAL3 (stepUpUrl says where)', Loose),
  },
});

const verifyReceiptRoute = createRoute({
  method: 'get',
  path: '/api/verify',
  summary: 'Verify a receipt: signatures, integrity, issuer and anchor',
  request: { query: z.object({ receiptId: ReceiptId }) },
  responses: { 200: json('The verification result', Verification) },
});

const verifyProofRoute = createRoute({
  method: 'post',
  path: '/api/verify',
  summary: 'Verify a proof (a serialized manifest) without the source data',
  request: body(
    z.object({
      proof: z.union([z.string().min(1), Loose]),
      publicJwk: Loose.optional(),
    }),
  ),
  responses: { 200: json('The verification result; a proof that fails is still a 200', Verification) },
});

const anchorRoute = createRoute({
  method: 'post',
  path: '/api/anchor',
  summary:
    "Anchor a receipt's manifest hash on chain (idempotent; batched unless the caller may anchor at once)",
  request: body(z.object({ receiptId: ReceiptId })),
  responses: {
    200: json('The anchor result, with the inclusion proof (root, path)', AnchorResult),
    429: json("anchor_budget_exhausted: the organization's immediate anchors for today are spent", Loose),
    503: json('relayer_low_balance / relayer_unavailable: nothing was sent', Loose),
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
    200: json(
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

const attestationRoute = createRoute({
  method: 'post',
  path: '/api/attestation',
  summary: 'Issue an EAS off-chain attestation (version 2) signed by the issuer',
  request: body(
    z.object({
      schema: z.string().min(1).max(500),
      subject: z.string().min(1).max(500),
      claim: requiredJson('claim'),
      issuerId: IssuerId.optional(),
    }),
  ),
  responses: {
    200: json(
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
      }),
    ),
  },
});

const KeyEntry = z
  .object({
    kid: z.string(),
    keyId: z.string(),
    did: z.string(),
    jwk: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() }),
    ethAddress: z.string(),
    status: z.enum(['active', 'retired']),
    createdAt: z.string(),
    retiredAt: z.string().nullable(),
  })
  .openapi('IssuerKey');

const jwksRoute = createRoute({
  method: 'get',
  path: '/api/keys/jwks',
  summary: 'Issuer public keys (active and retired; the demo issuer only in demo mode)',
  responses: { 200: json('The issuer key set', z.object({ keys: z.array(KeyEntry) })) },
});

const receiptRoute = createRoute({
  method: 'get',
  path: '/api/receipts/{receiptId}',
  summary: 'A seal receipt',
  request: { params: z.object({ receiptId: ReceiptId }) },
  responses: { 200: json('The seal receipt', Receipt) },
});

const proofRoute = createRoute({
  method: 'get',
  path: '/api/receipts/{receiptId}/proof',
  summary: 'Download the proof (the manifest) of a receipt as a file',
  request: { params: z.object({ receiptId: ReceiptId }) },
  responses: { 200: json('The manifest {claim, manifestHash, signatures}', Loose) },
});

const attestationGetRoute = createRoute({
  method: 'get',
  path: '/api/attestations/{attestationId}',
  summary: 'An attestation, with its signature checked',
  request: { params: z.object({ attestationId: AttestationId }) },
  responses: { 200: json('The attestation', Loose) },
});

export function registerApi(app: App, o: ApiOptions) {
  const { ctx, receipts, attestations, publishedKeys, directory } = o;
  const { sharedDomain } = ctx.settings;
  const identityUrl = ctx.settings.services.identity.url;
  const trustUrl = ctx.settings.services.trust.url;

  for (const path of ['/api/seal', '/api/attestation']) app.use(path, sharedDomainCors(sharedDomain));
  for (const path of [
    '/api/verify',
    '/api/anchor',
    '/api/anchor/check',
    '/api/keys/*',
    '/api/receipts/*',
    '/api/attestations/*',
  ])
    app.use(path, publicCors());
  const { trustProxy } = ctx.settings;
  app.use('/api/anchor', limitPosts(o.limits.anchor, ctx.sso, trustProxy));

  /** Where the person comes back after stepping up: the page that asked, when it is one of ours. */
  const stepUpUrl = (c: Context) => {
    const referer = c.req.header('referer');
    let back = `${trustUrl}/verify`;
    try {
      if (referer && isSharedDomainOrigin(new URL(referer).origin, sharedDomain)) back = referer;
    } catch {}
    return `${identityUrl}/step-up?aal=AAL3&redirect=${encodeURIComponent(back)}`;
  };

  /** The organization a seal is issued for, and the assurance level it was authorised with. */
  /**
   * Who signs (contract.md): a member of the organization (SSO session), or a service
   * token with `scope` bound to it; anonymous callers only in demo mode, as the demo
   * issuer. A service token is one bearer secret, a single factor: it seals at AAL1, so
   * tier 2 and above stay with people who stepped up to AAL3.
   */
  async function signerFor(
    c: Context,
    issuerId: string | undefined,
    scope: 'seal:issue' | 'attest:issue',
  ): Promise<{ issuer: Issuer; authLevel: string }> {
    // Each signature spends the caller's budget: the demo issuer's anonymous callers by address.
    const limiter = scope === 'seal:issue' ? o.limits.seal : o.limits.attestation;
    const demo = async () => {
      await spend(limiter, c, undefined, trustProxy);
      return { issuer: directory.demoIssuer, authLevel: 'AAL1' };
    };
    if (issuerId !== undefined && directory.isDemo(issuerId)) return demo();
    if (o.demo && bearerToken(c) === undefined && !(await ctx.sso.sessionOf(c))) {
      if (issuerId !== undefined) throw errors.demo_only();
      return demo();
    }
    const actor = await o.guard.authorize(c, { scope, orgId: issuerId });
    if (!actor.orgId) throw actor.kind === 'user' ? errors.no_organization() : errors.issuer_required();
    await spend(limiter, c, actor, trustProxy);
    const authLevel = actor.kind === 'user' ? actor.session.aal : 'AAL1';
    return { issuer: await directory.require(actor.orgId), authLevel };
  }

  /**
   * Immediate anchoring is a privilege of the receipt's organization: a member's session
   * or a service token with `anchor:write` bound to it. Anyone else (including a caller
   * whose credentials do not cover that organization) is batched: the endpoint stays public.
   */
  async function anchorModeFor(c: Context, orgId: string): Promise<AnchorMode> {
    if (bearerToken(c) === undefined && !c.req.header('cookie')) return 'batch';
    try {
      await o.guard.authorize(c, { scope: 'anchor:write', orgId });
      return 'immediate';
    } catch {
      return 'batch';
    }
  }

  app.openapi(sealRoute, async (c) => {
    const request = c.req.valid('json');
    const { issuer, authLevel } = await signerFor(c, request.issuerId, 'seal:issue');
    if (needsStepUp(request.tier, authLevel))
      throw errors.stepup_required(undefined, { stepUpUrl: stepUpUrl(c), requiredAal: 'AAL3' });
    const receipt = await receipts.seal({
      issuer,
      authLevel,
      modelId: request.modelId,
      output: request.output,
      input: request.input,
      storeInput: request.storeInput === true,
      tier: request.tier,
    });
    if (request.anchorNow) {
      // The demo issuer signs for anyone: its anchors are batched like public ones.
      const mode = directory.isDemo(issuer.orgId) ? 'batch' : 'immediate';
      try {
        receipt.anchor = await receipts.anchorNow(receipt.receiptId, mode);
      } catch (error) {
        // The seal stands; anchoring can be asked for again with POST /api/anchor.
        c.get('logger').warn({ err: error, receiptId: receipt.receiptId }, 'anchorNow failed');
        receipt.anchor = { mode: 'none', error: 'relayer_unavailable' };
      }
    }
    return c.json(receipt, 200);
  });

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

  app.openapi(anchorRoute, async (c) => {
    const row = await receipts.find(c.req.valid('json').receiptId);
    return c.json(await receipts.anchor(row.receipt_id, await anchorModeFor(c, row.org_id)), 200);
  });

  app.openapi(anchorCheckRoute, async (c) => {
    const { txHash, root } = c.req.valid('query');
    return c.json(await receipts.checkRoot(txHash, root), 200);
  });

  app.openapi(attestationRoute, async (c) => {
    const request = c.req.valid('json');
    const { issuer } = await signerFor(c, request.issuerId, 'attest:issue');
    return c.json(await attestations.issue(issuer, request), 200);
  });

  app.openapi(jwksRoute, async (c) => {
    const keys = await publishedKeys.all();
    c.header('Cache-Control', 'public, max-age=60');
    return c.json(
      {
        keys: keys.map((k) => ({
          kid: k.orgId,
          keyId: k.keyId,
          did: k.did,
          jwk: k.jwk,
          ethAddress: k.ethAddress,
          status: k.status,
          createdAt: new Date(k.createdAt).toISOString(),
          retiredAt: k.retiredAt === null ? null : new Date(k.retiredAt).toISOString(),
        })),
      },
      200,
    );
  });

  app.openapi(receiptRoute, async (c) =>
    c.json(receipts.view(await receipts.find(c.req.valid('param').receiptId)), 200),
  );

  app.openapi(proofRoute, async (c) => {
    const row = await receipts.find(c.req.valid('param').receiptId);
    c.header('Content-Disposition', `attachment; filename="${row.receipt_id}.proof.json"`);
    return c.json(receipts.proofOf(row), 200);
  });

  app.openapi(attestationGetRoute, async (c) => {
    const { row, attestation, valid, signatureValid, issuerVerified, reason } = await attestations.find(
      c.req.valid('param').attestationId,
    );
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
      },
      200,
    );
  });
}
