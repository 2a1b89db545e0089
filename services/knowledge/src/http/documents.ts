/**
 * @module http/documents
 * The document endpoints, as in the spec's table: the desktop client pushes and
 * submits with a `sync` token; reviewers decide with an SSO session holding
 * `review:decide`. Beyond the spec: `POST /api/sync/retire` (a file deleted from
 * the vault), `GET /api/sync/manifest` (what the server has, for the sync client),
 * `GET /api/documents[/:docId]` for reviewers, and `POST /api/documents/:docId/visibility`
 * (a reviewer marks an approved document public for the organization's public assistant).
 */
import { guardErrors, platformErrors } from '@xv/platform';
import { type App, access, createRoute, errorResponses, jsonBody, jsonResponse, z } from '@xv/platform/http';
import { DOCUMENT_STATES } from '../documents/model.js';
import { errors } from '../errors.js';
import type { Knowledge } from './context.js';

const DocId = z.string().min(1).max(64).openapi({ example: 'doc_01HZX4' });
const HASH_EXAMPLE = 'sha256-5d41402abc4b2a76b9719d911017c592ae1a5a1f3b2c4d5e6f708192a3b4c5d6';
/** A failed token attempt counts towards a per-address limit. */
const syncErrors = [platformErrors.rate_limited] as const;
const reviewerErrors = [guardErrors.not_a_member, errors.review_forbidden] as const;
const State = z.enum(DOCUMENT_STATES);
const MAX_CONTENT = 2_000_000;

const push = createRoute({
  method: 'post',
  path: '/api/sync/push',
  summary: 'Push a Markdown document from the vault (makes or updates a draft)',
  security: access.personalToken('sync'),
  request: {
    body: jsonBody(
      z.object({
        path: z.string().min(1).max(1024),
        content: z.string().max(MAX_CONTENT),
        hash: z.string().min(1).max(80),
        title: z.string().max(1000).optional(),
      }),
      {
        example: {
          path: 'sales/discounts.md',
          content: '# Discount policy\n\nDiscounts above 15 percent need the sales director’s approval.\n',
          hash: HASH_EXAMPLE,
          title: 'Discount policy',
        },
      },
    ),
  },
  responses: {
    200: jsonResponse('The document', z.object({ docId: z.string(), state: State, unchanged: z.boolean() }), {
      docId: 'doc_01HZX4',
      state: 'draft',
      unchanged: false,
    }),
    ...errorResponses(errors.invalid_path, errors.hash_mismatch, ...syncErrors),
  },
});

const submit = createRoute({
  method: 'post',
  path: '/api/sync/submit',
  summary: 'Submit a draft for review',
  security: access.personalToken('sync'),
  request: { body: jsonBody(z.object({ docId: DocId }), { example: { docId: 'doc_01HZX4' } }) },
  responses: {
    200: jsonResponse('Under review', z.object({ ok: z.literal(true), state: z.literal('under_review') }), {
      ok: true,
      state: 'under_review',
    }),
    ...errorResponses(errors.document_not_found, errors.not_a_draft, ...syncErrors),
  },
});

const retire = createRoute({
  method: 'post',
  path: '/api/sync/retire',
  summary: 'Retire a document whose file was deleted from the vault',
  security: access.personalToken('sync'),
  request: {
    body: jsonBody(z.object({ path: z.string().min(1).max(1024) }), {
      example: { path: 'sales/discounts.md' },
    }),
  },
  responses: {
    ...errorResponses(
      errors.invalid_path,
      errors.document_not_found,
      errors.nothing_to_retire,
      ...syncErrors,
    ),
    200: jsonResponse(
      'Retired, or a retirement waiting for review',
      z.object({ ok: z.literal(true), docId: z.string(), state: State }),
    ),
  },
});

const manifest = createRoute({
  method: 'get',
  path: '/api/sync/manifest',
  summary: 'Paths, hashes and states of the organization’s documents',
  security: access.personalToken('sync'),
  responses: {
    ...errorResponses(...syncErrors),
    200: jsonResponse(
      'Every document of the organization',
      z.object({
        documents: z.array(
          z.object({
            docId: z.string(),
            path: z.string(),
            hash: z.string(),
            state: State,
            /** `retirement` while the newest revision takes the document out (pending or done). */
            kind: z.enum(['content', 'retirement']),
            note: z.string().optional().describe("The reviewer's note, on a rejected document"),
          }),
        ),
      }),
    ),
  },
});

const decide = createRoute({
  method: 'post',
  path: '/api/review/decide',
  summary: 'Approve or reject a document under review',
  security: access.session,
  request: {
    body: jsonBody(
      z.object({
        docId: DocId,
        decision: z.enum(['approve', 'reject']),
        note: z.string().max(2000).optional(),
        /**
         * The content hash of the revision decided on (hex or `sha256-<hex>`). Without it, the
         * revision first submitted since the last decision. Another revision under review: 409
         * `revision_changed` with the current hash as `revision`.
         */
        revision: z.string().max(80).optional(),
      }),
      {
        example: {
          docId: 'doc_01HZX4',
          decision: 'approve',
          note: 'Matches the pricing committee’s decision.',
          revision: HASH_EXAMPLE,
        },
      },
    ),
  },
  responses: {
    200: jsonResponse('The decision', z.object({ ok: z.literal(true), state: State }), {
      ok: true,
      state: 'approved',
    }),
    ...errorResponses(
      errors.invalid_revision,
      ...reviewerErrors,
      errors.maker_cannot_review,
      errors.document_not_found,
      errors.not_under_review,
      errors.revision_changed,
      errors.embedder_unavailable,
    ),
  },
});

const Summary = z.object({
  docId: z.string(),
  path: z.string(),
  title: z.string(),
  state: State,
  hash: z.string(),
  revision: z.number(),
  maker: z.string(),
  updatedAt: z.string(),
});

const listDocuments = createRoute({
  method: 'get',
  path: '/api/documents',
  summary: 'Documents of the organization, newest first (reviewers)',
  security: access.session,
  request: {
    query: z.object({
      state: State.optional(),
      limit: z.coerce.number().int().min(1).max(100).default(50),
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
    }),
  },
  responses: {
    200: jsonResponse('Documents', z.object({ documents: z.array(Summary) })),
    ...errorResponses(...reviewerErrors),
  },
});

const getDocument = createRoute({
  method: 'get',
  path: '/api/documents/{docId}',
  summary: 'A document with its newest revision, the live revision and its review history (reviewers)',
  security: access.session,
  request: { params: z.object({ docId: DocId }) },
  responses: {
    ...errorResponses(...reviewerErrors, errors.document_not_found),
    200: jsonResponse(
      'The document',
      Summary.extend({
        kind: z.enum(['content', 'retirement']),
        content: z.string(),
        makerId: z.string(),
        live: z
          .object({ revision: z.number(), title: z.string(), hash: z.string(), content: z.string() })
          .nullable(),
        public: z.boolean(),
        history: z.array(
          z.object({
            revision: z.number(),
            action: z.string(),
            hash: z.string().nullable(),
            actor: z.string(),
            actorId: z.string(),
            note: z.string().nullable(),
            at: z.string(),
          }),
        ),
      }),
    ),
  },
});

const visibility = createRoute({
  method: 'post',
  path: '/api/documents/{docId}/visibility',
  summary:
    "Mark an approved document public (served by the organization's public assistant) or not (reviewers)",
  security: access.session,
  request: {
    params: z.object({ docId: DocId }),
    body: jsonBody(z.object({ public: z.boolean() }), { example: { public: true } }),
  },
  responses: {
    ...errorResponses(...reviewerErrors, errors.document_not_found, errors.not_approved),
    200: jsonResponse('Saved', z.object({ ok: z.literal(true), docId: z.string(), public: z.boolean() })),
  },
});

export function registerDocumentRoutes(app: App, k: Knowledge) {
  app.openapi(push, async (c) => {
    const caller = await k.auth.token(c, 'sync');
    return c.json(await k.review.push(caller, c.req.valid('json')), 200);
  });
  app.openapi(submit, async (c) => {
    const caller = await k.auth.token(c, 'sync');
    await k.review.submit(caller, c.req.valid('json').docId);
    return c.json({ ok: true as const, state: 'under_review' as const }, 200);
  });
  app.openapi(retire, async (c) => {
    const caller = await k.auth.token(c, 'sync');
    return c.json({ ok: true as const, ...(await k.review.retire(caller, c.req.valid('json').path)) }, 200);
  });
  app.openapi(manifest, async (c) => {
    const caller = await k.auth.token(c, 'sync');
    return c.json({ documents: await k.documents.manifest(caller.orgId) }, 200);
  });
  app.openapi(decide, async (c) => {
    const caller = await k.auth.session(c);
    const { docId, decision, note, revision } = c.req.valid('json');
    const state = await k.review.decide(caller, docId, decision, note, revision);
    return c.json({ ok: true as const, state }, 200);
  });
  app.openapi(listDocuments, async (c) => {
    const caller = await k.auth.reviewer(c);
    return c.json({ documents: await k.documents.list(caller.orgId, c.req.valid('query')) }, 200);
  });
  app.openapi(getDocument, async (c) => {
    const caller = await k.auth.reviewer(c);
    return c.json(await k.documents.detail(caller.orgId, c.req.valid('param').docId), 200);
  });
  app.openapi(visibility, async (c) => {
    const caller = await k.auth.reviewer(c);
    const { docId } = c.req.valid('param');
    const visible = c.req.valid('json').public;
    await k.review.setVisibility(caller, docId, visible);
    return c.json({ ok: true as const, docId, public: visible }, 200);
  });
}
