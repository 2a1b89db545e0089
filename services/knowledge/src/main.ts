import { runService } from '@xv/platform/service';
import { knowledgeService } from './service.js';

await runService(knowledgeService);
