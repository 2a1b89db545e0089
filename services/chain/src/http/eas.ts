/**
 * @module http/eas
 * The relayer's EAS API. Reads like its table:
 *
 * | method | path                  | auth               | what                                          |
 * |--------|-----------------------|--------------------|-----------------------------------------------|
 * | GET    | /api/eas              | none               | chain id, EAS and SchemaRegistry addresses, version |
 * | POST   | /api/eas/schemas      | relayer credential | register a schema (idempotent by its UID)     |
 * | POST   | /api/eas/attestations | relayer credential | submit an attestation the attester signed (delegated) |
 */
import { guardErrors } from '@xv/platform';
import { type App, access, createRoute, errorResponses, jsonBody, jsonResponse, z } from '@xv/platform/http';
import type { Hex } from 'viem';
import type { EasGateway } from '../eas/gateway.js';
import { errors } from '../errors.js';
import { chainCall, requireToken } from './anchors.js';

/** Hex of a fixed length, lowercased: an address's letter case is a checksum viem would enforce. */
const hex = (bytes: number) =>
  z
    .string()
    .regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`), `must be 0x followed by ${bytes * 2} hex digits`)
    .transform((value) => value.toLowerCase() as Hex);
const HexBytes = z
  .string()
  .max(20_000)
  .regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'must be 0x followed by whole bytes in hex')
  .transform((value) => value.toLowerCase() as Hex);
const UINT64_DIGITS = /^[0-9]{1,20}$/;
/** A uint64 as a decimal string (JSON numbers lose precision past 2^53). */
const Uint64 = z
  .string()
  .regex(UINT64_DIGITS, 'must be a whole number, as a string')
  // Zod runs this check even when the pattern already failed: BigInt must only ever see digits.
  .refine((value) => !UINT64_DIGITS.test(value) || BigInt(value) < 2n ** 64n, 'must fit in 64 bits');

const bearer = { security: access.relayer };
const credentialErrors = [
  [guardErrors.invalid_token, 'Send the relayer credential as a bearer token.'],
] as const;

const ZERO_32 = `0x${'0'.repeat(64)}`;

const easRoute = createRoute({
  method: 'get',
  path: '/api/eas',
  summary: 'The EAS contracts on the relayer chain: chain id, addresses and EIP-712 domain version',
  security: access.public,
  responses: {
    200: jsonResponse(
      'The EAS deployment',
      z
        .object({ chainId: z.number(), eas: z.string(), schemaRegistry: z.string(), version: z.string() })
        .openapi('EasDeployment'),
    ),
    ...errorResponses(errors.eas_not_configured),
  },
});

const schemaRoute = createRoute({
  method: 'post',
  path: '/api/eas/schemas',
  summary:
    'Register a schema in the SchemaRegistry (no resolver); answers with the existing one when present',
  ...bearer,
  request: {
    body: jsonBody(z.object({ schema: z.string().min(1).max(2000), revocable: z.boolean().default(true) }), {
      example: { schema: 'string schemaUri,string subject,bytes32 claimHash', revocable: true },
    }),
  },
  responses: {
    200: jsonResponse(
      'The schema UID, and the registration transaction when this call registered it',
      z.object({ uid: z.string(), txHash: z.string().nullable() }).openapi('SchemaRegistration'),
    ),
    ...errorResponses(...credentialErrors, errors.eas_not_configured, errors.eas_call_rejected),
  },
});

const attestationRoute = createRoute({
  method: 'post',
  path: '/api/eas/attestations',
  summary: 'Submit an attestation signed by its attester (EAS attestByDelegation); answers once mined',
  ...bearer,
  request: {
    body: jsonBody(
      z.object({
        schema: hex(32),
        recipient: hex(20),
        expirationTime: Uint64.default('0'),
        revocable: z.boolean(),
        refUID: hex(32),
        data: HexBytes,
        attester: hex(20),
        deadline: Uint64,
        signature: z.object({ v: z.number().int().min(0).max(255), r: hex(32), s: hex(32) }),
      }),
      {
        example: {
          schema: `0x${'5a'.repeat(32)}`,
          recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          expirationTime: '0',
          revocable: true,
          refUID: ZERO_32,
          data: `0x${'00'.repeat(32)}`,
          attester: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
          deadline: '1798761600',
          signature: { v: 27, r: `0x${'1b'.repeat(32)}`, s: `0x${'2c'.repeat(32)}` },
        },
      },
    ),
  },
  responses: {
    201: jsonResponse(
      'The attestation as the EAS contract recorded it',
      z
        .object({
          uid: z.string(),
          txHash: z.string(),
          blockNumber: z.number(),
          attester: z.string(),
          chainId: z.number(),
          eas: z.string(),
        })
        .openapi('OnchainAttestation'),
    ),
    ...errorResponses(...credentialErrors, errors.eas_not_configured, errors.eas_call_rejected),
  },
});

export function registerEasApi(app: App, options: { eas: EasGateway | undefined; token: string }) {
  const gateway = () => {
    if (!options.eas) throw errors.eas_not_configured();
    return options.eas;
  };
  app.use('/api/eas/schemas', requireToken(options.token));
  app.use('/api/eas/attestations', requireToken(options.token));

  app.openapi(easRoute, (c) => {
    const { chainId, eas, schemaRegistry, version } = gateway().deployment;
    return c.json({ chainId, eas, schemaRegistry, version }, 200);
  });

  app.openapi(schemaRoute, async (c) => {
    const { schema, revocable } = c.req.valid('json');
    return c.json(await chainCall(() => gateway().registerSchema(schema, revocable)), 200);
  });

  app.openapi(attestationRoute, async (c) => {
    const request = c.req.valid('json');
    const eas = gateway();
    const recorded = await chainCall(() =>
      eas.attestByDelegation({
        ...request,
        expirationTime: BigInt(request.expirationTime),
        deadline: BigInt(request.deadline),
      }),
    );
    return c.json({ ...recorded, chainId: eas.deployment.chainId, eas: eas.deployment.eas }, 201);
  });
}
