/**
 * @module @xv/trust
 * The trust service, as tests and the launcher start it.
 */
export { trustService } from './service.js';
