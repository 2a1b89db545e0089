export { trustService } from './service.js';
