/**
 * @module routes
 * The relayer's HTTP API. Reads like its table:
 *
 * | method | path                 | auth              | what                                    |
 * |--------|----------------------|-------------------|-----------------------------------------|
 * | POST   | /api/anchors         | relayer credential | anchor a 32-byte hash (idempotent)     |
 * | GET    | /api/anchors/{ref}   | relayer credential | the anchor's current transaction/state |
 * | GET    | /api/relayer         | none              | the relayer's address and chain id      |
 * | GET    | /tx/{txHash}         | none              | explorer page of one transaction (HTML) |
 */
import { type App, constantTimeEqual, createRoute, z } from '@xv/platform';
import type { MiddlewareHandler } from 'hono';
import { BaseError, type Hex } from 'viem';
import { errors } from './errors.js';
import { explorerPage } from './pages/explorer.js';
import type { Relayer } from './relayer/relayer.js';
import type { AnchorRow } from './relayer/store.js';

const Hash32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex digits (32 bytes)')
  .transform((value) => value.toLowerCase() as Hex);

const AnchorView = z
  .object({
    mode: z.literal('onchain'),
    ref: z.string(),
    txHash: z.string(),
    explorerUrl: z.string(),
    status: z.enum(['pending', 'mined', 'confirmed']),
    chainId: z.number(),
    from: z.string(),
    nonce: z.number(),
    blockNumber: z.number().nullable(),
    confirmations: z.number(),
    attempts: z.number(),
  })
  .openapi('Anchor');

const bearer = { security: [{ relayerToken: [] }] };

const anchorRoute = createRoute({
  method: 'post',
  path: '/api/anchors',
  summary: 'Anchor a 32-byte hash on the chain (idempotent by hash)',
  ...bearer,
  request: {
    body: { required: true, content: { 'application/json': { schema: z.object({ hash: Hash32 }) } } },
  },
  responses: {
    200: {
      description: 'The hash was anchored before',
      content: { 'application/json': { schema: AnchorView } },
    },
    201: { description: 'Anchoring started', content: { 'application/json': { schema: AnchorView } } },
  },
});

const anchorStatusRoute = createRoute({
  method: 'get',
  path: '/api/anchors/{ref}',
  summary: 'The current transaction and confirmations of an anchor',
  ...bearer,
  request: { params: z.object({ ref: Hash32 }) },
  responses: {
    200: { description: 'The anchor', content: { 'application/json': { schema: AnchorView } } },
  },
});

const relayerRoute = createRoute({
  method: 'get',
  path: '/api/relayer',
  summary: 'The relayer address, chain id and confirmations it waits for',
  responses: {
    200: {
      description: 'Relayer info',
      content: {
        'application/json': {
          schema: z.object({ address: z.string(), chainId: z.number(), confirmations: z.number() }),
        },
      },
    },
  },
});

export interface RouteOptions {
  relayer: Relayer;
  token: string;
  confirmations: number;
  /** Base of explorer links: a public explorer, or this service's own `/tx` pages. */
  explorerBase: string;
}

export function registerRoutes(app: App, options: RouteOptions) {
  const { relayer, explorerBase } = options;
  const view = (row: AnchorRow) => ({
    mode: 'onchain' as const,
    ref: row.ref,
    txHash: row.tx_hash,
    explorerUrl: `${explorerBase}/tx/${row.tx_hash}`,
    status: row.status,
    chainId: row.chain_id,
    from: row.from_address,
    nonce: row.nonce,
    blockNumber: row.block_number,
    confirmations: row.confirmations,
    attempts: row.attempts,
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'relayerToken', {
    type: 'http',
    scheme: 'bearer',
  });
  app.use('/api/anchors', requireToken(options.token));
  app.use('/api/anchors/*', requireToken(options.token));

  app.openapi(anchorRoute, async (c) => {
    const { hash } = c.req.valid('json');
    const { anchor, created } = await chainCall(() => relayer.anchor(hash));
    return created ? c.json(view(anchor), 201) : c.json(view(anchor), 200);
  });

  app.openapi(anchorStatusRoute, async (c) => {
    const anchor = await relayer.find(c.req.valid('param').ref);
    if (!anchor) throw errors.anchor_not_found();
    return c.json(view(anchor), 200);
  });

  app.openapi(relayerRoute, (c) =>
    c.json({ address: relayer.address, chainId: relayer.chainId, confirmations: options.confirmations }, 200),
  );

  app.get('/tx/:txHash', async (c) => {
    const txHash = c.req.param('txHash');
    if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) throw errors.transaction_not_found();
    return c.html(await chainCall(() => explorerPage(relayer, txHash.toLowerCase() as Hex)));
  });
}

function requireToken(token: string): MiddlewareHandler {
  return async (c, next) => {
    const presented = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!presented || !constantTimeEqual(presented, token)) throw errors.invalid_token();
    return next();
  };
}

/** An unreachable node becomes 503 `chain_unavailable`; our own errors pass through. */
async function chainCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BaseError) throw errors.chain_unavailable();
    throw error;
  }
}
