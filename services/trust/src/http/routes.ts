/**
 * @module http/routes
 * Everything the trust service serves over HTTP. The JSON API, by area:
 *
 * | method | path                            | auth                                  | file               |
 * |--------|---------------------------------|---------------------------------------|--------------------|
 * | POST   | /api/seal                       | SSO session (or demo mode)            | api/seal.ts        |
 * | GET    | /api/verify?receiptId=          | none                                  | api/receipts.ts    |
 * | POST   | /api/verify                     | none                                  | api/receipts.ts    |
 * | POST   | /api/anchor                     | none (batched); member / `anchor:write` token: immediate, budgeted | api/anchoring.ts |
 * | GET    | /api/anchor/check?txHash=&root= | none (beyond the spec)                | api/anchoring.ts   |
 * | POST   | /api/attestation                | member / `attest:issue` token, or demo | api/attestations.ts |
 * | GET    | /api/keys/jwks                  | none                                  | api/keys.ts        |
 * | GET    | /api/receipts/{receiptId}       | none (beyond the spec)                | api/receipts.ts    |
 * | GET    | /api/receipts/{receiptId}/proof | none: the manifest as a file          | api/receipts.ts    |
 * | GET    | /api/attestations/{id}          | none (beyond the spec)                | api/attestations.ts |
 *
 * and the pages (`/verify`, `/verify/{id}`: pages.tsx). Seals, attestations and anchor
 * requests spend a per-client budget (rate-limits.ts).
 */
import { type App, createAuthGuard, publicCors, sharedDomainCors } from '@xv/platform/http';
import { registerClientAssets } from '@xv/platform/pages';
import type { ServiceContext } from '@xv/platform/service';
import type { TrustTables } from '../db.js';
import type { Trust } from '../trust.js';
import { registerAnchorApi } from './api/anchoring.js';
import { registerAttestationApi, registerAttestationReadApi } from './api/attestations.js';
import { registerKeysApi } from './api/keys.js';
import { registerReceiptApi, registerVerifyApi } from './api/receipts.js';
import { registerSealApi } from './api/seal.js';
import { createCallers } from './callers.js';
import { registerPages } from './pages.js';
import { createTrustRateLimits, limitPosts } from './rate-limits.js';

export interface HttpOptions {
  ctx: ServiceContext<unknown, TrustTables>;
  trust: Trust;
  perMinute: { seal: number; attestation: number; anchor: number };
}

export async function registerHttp(app: App, { ctx, trust, perMinute }: HttpOptions): Promise<void> {
  const { sharedDomain, trustProxy } = ctx.settings;
  const identityUrl = ctx.settings.services.identity.url;
  const limits = await createTrustRateLimits(ctx.database, perMinute);
  const callers = createCallers({
    guard: createAuthGuard({ sso: ctx.sso, identityUrl }),
    sso: ctx.sso,
    limits,
    trustProxy,
    sharedDomain,
    identityUrl,
    trustUrl: ctx.settings.services.trust.url,
  });
  const assets = await registerClientAssets(app, import.meta.url);

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
  app.use('/api/anchor', limitPosts(limits.anchor, ctx.sso, trustProxy));

  const { policy, receipts, anchors, attestations } = trust;
  registerSealApi(app, { policy, sealing: trust.sealing, callers });
  registerVerifyApi(app, receipts);
  registerAnchorApi(app, { receipts, anchors, policy, callers });
  registerAttestationApi(app, { attestations, policy, callers });
  registerKeysApi(app, trust.publishedKeys);
  registerReceiptApi(app, receipts);
  registerAttestationReadApi(app, attestations);
  registerPages(app, { receipts, attestations, directory: trust.directory, assets, sso: ctx.sso });
}
