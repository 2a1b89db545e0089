export { knowledgeService } from './service.js';
