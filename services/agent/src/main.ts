import { runService } from '@xv/platform';
import { agentService } from './service.js';

await runService(agentService);
