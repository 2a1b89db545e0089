/**
 * @module @xv/platform/pages
 * What every XV page is made of: one layout, the design tokens, and the
 * service's browser code bundled from `src/client/` and served with hashed names.
 */
export * from '../i18n.js';
export { shellMessages } from '../messages/index.js';
export * from './assets.js';
export * from './i18n.js';
export * from './layout.js';
export * from './shell.js';
export * from './tokens.js';
