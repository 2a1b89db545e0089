/**
 * @module @xv/identity
 * The identity service and the pieces other parts of it (and operator tools) build on.
 */
export * as accounts from './accounts/repository.js';
export { credentialKeys } from './credentials/index.js';
export type { Tables } from './db.js';
export type { IdentityContext } from './http/context.js';
export { migrations } from './migrations/index.js';
export { identityService } from './service.js';
export * as serviceClients from './service-clients/repository.js';
