export { agentService } from './service.js';
