export { orchestrationService } from './service.js';
