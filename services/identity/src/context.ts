/**
 * @module context
 * The identity context now lives in `http/context.ts`; this path stays for the
 * credentials module, which imports it from here.
 */
export * from './http/context.js';
