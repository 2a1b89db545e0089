/**
 * @module http/anchors
 * The relayer's JSON API. Reads like its table:
 *
 * | method | path                 | auth              | what                                    |
 * |--------|----------------------|-------------------|-----------------------------------------|
 * | POST   | /api/anchors         | relayer credential | anchor a 32-byte hash alone (idempotent) |
 * | POST   | /api/batch           | relayer credential | queue a hash for the next batch, wait   |
 * | GET    | /api/anchors/{ref}   | relayer credential | the anchor's current transaction/state |
 * | GET    | /api/relayer         | none              | address, chain id, balance status, queue |
 */
import { constantTimeEqual, guardErrors } from '@xv/platform';
import { type App, access, createRoute, errorResponses, jsonBody, jsonResponse, z } from '@xv/platform/http';
import type { MiddlewareHandler } from 'hono';
import { BaseError, type Hex } from 'viem';
import type { EasGateway } from '../eas/gateway.js';
import { errors } from '../errors.js';
import type { AnchorOutcome, Relayer } from '../relayer/relayer.js';

const Hash32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex digits (32 bytes)')
  .transform((value) => value.toLowerCase() as Hex)
  .openapi({ example: '0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' });

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
    leaf: z.string(),
    path: z.array(z.string()),
  })
  .openapi('Anchor', {
    example: {
      mode: 'onchain',
      ref: '0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      txHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
      explorerUrl:
        'http://localhost:4006/tx/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
      status: 'confirmed',
      chainId: 31337,
      from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      nonce: 7,
      blockNumber: 42,
      confirmations: 3,
      attempts: 1,
      leaf: '0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      path: [],
    },
  });

const bearer = { security: access.relayer };
/** The relayer credential is checked before anything else. */
const credentialErrors = [
  [guardErrors.invalid_token, 'Send the relayer credential as a bearer token.'],
] as const;

const anchorRoute = createRoute({
  method: 'post',
  path: '/api/anchors',
  summary: 'Anchor a 32-byte hash on the chain (idempotent by hash)',
  ...bearer,
  request: { body: jsonBody(z.object({ hash: Hash32 })) },
  responses: {
    200: jsonResponse('The hash was anchored before', AnchorView),
    201: jsonResponse('Anchoring started', AnchorView),
    ...errorResponses(...credentialErrors, errors.relayer_low_balance, errors.chain_unavailable),
  },
});

const batchRoute = createRoute({
  method: 'post',
  path: '/api/batch',
  summary: 'Queue a 32-byte hash for the next batched anchor; answers once the batch is sent',
  ...bearer,
  request: { body: jsonBody(z.object({ hash: Hash32 })) },
  responses: {
    200: jsonResponse('The anchor of the batch holding the hash, and its Merkle path', AnchorView),
    // relayer_low_balance: the hash stays queued, sent once the relayer is funded.
    ...errorResponses(
      ...credentialErrors,
      errors.relayer_low_balance,
      errors.batch_not_sent,
      errors.chain_unavailable,
    ),
  },
});

const anchorStatusRoute = createRoute({
  method: 'get',
  path: '/api/anchors/{ref}',
  summary: 'The current transaction and confirmations of an anchor',
  ...bearer,
  request: { params: z.object({ ref: Hash32 }) },
  responses: {
    200: jsonResponse('The anchor', AnchorView),
    ...errorResponses(...credentialErrors, errors.anchor_not_found),
  },
});

const relayerRoute = createRoute({
  method: 'get',
  path: '/api/relayer',
  summary: 'The relayer address, chain id and confirmations it waits for',
  security: access.public,
  responses: {
    ...errorResponses(errors.chain_unavailable),
    200: jsonResponse(
      'Relayer info',
      z.object({
        address: z.string(),
        chainId: z.number(),
        confirmations: z.number(),
        status: z.enum(['ok', 'relayer_low_balance']),
        balanceWei: z.string(),
        minBalanceWei: z.string(),
        queued: z.number(),
      }),
    ),
  },
});

export interface AnchorApiOptions {
  relayer: Relayer;
  eas: EasGateway | undefined;
  token: string;
  confirmations: number;
  /** Base of explorer links: a public explorer, or this service's own `/tx` pages. */
  explorerBase: string;
}

export function registerAnchorApi(app: App, options: AnchorApiOptions) {
  const { relayer, explorerBase } = options;
  const view = ({ anchor: row, leaf, path }: AnchorOutcome) => ({
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
    leaf,
    path,
  });

  app.use('/api/anchors', requireToken(options.token));
  app.use('/api/anchors/*', requireToken(options.token));
  app.use('/api/batch', requireToken(options.token));

  app.openapi(anchorRoute, async (c) => {
    const { hash } = c.req.valid('json');
    const outcome = await chainCall(() => relayer.anchor(hash));
    return outcome.created ? c.json(view(outcome), 201) : c.json(view(outcome), 200);
  });

  app.openapi(batchRoute, async (c) => {
    const { hash } = c.req.valid('json');
    return c.json(view(await chainCall(() => relayer.enqueue(hash))), 200);
  });

  app.openapi(anchorStatusRoute, async (c) => {
    const outcome = await relayer.anchorOf(c.req.valid('param').ref);
    if (!outcome) throw errors.anchor_not_found();
    return c.json(view(outcome), 200);
  });

  app.openapi(relayerRoute, async (c) =>
    c.json(
      {
        address: relayer.address,
        chainId: relayer.chainId,
        confirmations: options.confirmations,
        ...(await chainCall(() => relayer.status())),
      },
      200,
    ),
  );
}

export function requireToken(token: string): MiddlewareHandler {
  return async (c, next) => {
    const presented = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!presented || !constantTimeEqual(presented, token))
      throw guardErrors.invalid_token('Send the relayer credential as a bearer token.');
    return next();
  };
}

/** An unreachable node becomes 503 `chain_unavailable`; our own errors pass through. */
export async function chainCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BaseError) throw errors.chain_unavailable();
    throw error;
  }
}
