import { runService } from '@xv/platform';
import { knowledgeService } from './service.js';

await runService(knowledgeService);
