/**
 * @module errors
 * The errors only the knowledge service answers with, named once. Credentials,
 * scopes, membership and origins answer with the platform's codes
 * (`unauthenticated`, `invalid_token`, `insufficient_scope`, `not_a_member`,
 * `forbidden_origin`), raised in `http/auth.ts` and `http/mcp.ts`.
 */
import { defineErrors } from '@xv/platform';
import { MAX_TOP_K } from './search/limits.js';

export const errors = defineErrors('knowledge', {
  review_forbidden: { status: 403, message: 'Reviewing needs the review:decide permission.' },
  maker_cannot_review: {
    status: 403,
    message: 'The maker of a revision cannot review it; another reviewer must decide.',
  },
  hash_mismatch: { status: 400, message: 'The hash is not the SHA-256 of the content.' },
  invalid_path: { status: 400, message: 'The path must be a relative vault path of at most 512 characters.' },
  document_not_found: { status: 404, message: 'No such document in your organization.' },
  token_not_found: { status: 404, message: 'No such access token.' },
  not_a_draft: { status: 409, message: 'Only a draft can be submitted for review.' },
  not_under_review: { status: 409, message: 'The document is not waiting for review.' },
  revision_changed: {
    status: 409,
    message: 'The document changed since the revision you decided on; review the current revision.',
  },
  invalid_revision: {
    status: 400,
    message: 'The revision must be the SHA-256 content hash of a revision (hex, or sha256-<hex>).',
  },
  no_public_assistant: {
    status: 403,
    message: 'No organization with a public assistant has that id.',
  },
  not_approved: { status: 409, message: 'Only a document with an approved revision can be made public.' },
  nothing_to_retire: { status: 409, message: 'The document is already retired.' },
  top_k_too_large: { status: 400, message: `topK may be at most ${MAX_TOP_K}.` },
  invalid_page: { status: 400, message: 'The page must be a whole number from 1 to 10000.' },
  query_too_long: { status: 400, message: 'A search asks in at most 2000 characters.' },
  embedder_unavailable: { status: 503, message: 'The embeddings endpoint cannot be reached.' },
});
