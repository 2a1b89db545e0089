/** The OpenAPI helpers are the platform's now; kept for the credentials module (see `http/compat.ts`). */
export { errorBody, jsonBody, jsonResponse, okBody } from './http/compat.js';
