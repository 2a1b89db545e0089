/**
 * @module http/compat
 * What the credentials module still imports from paths that moved (`auth/web`,
 * `pages/layout`, `schemas`). The re-exports at those paths point here; they go
 * away once the credentials module imports the platform's helpers directly.
 */
export { errorBody, jsonBody, jsonResponse, okBody } from '@xv/platform/http';
export { readForm, withQuery } from './forms.js';
export { Layout } from './legacy-layout.js';
