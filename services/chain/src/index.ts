export { chainService } from './service.js';
