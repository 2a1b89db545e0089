import { runService } from '@xv/platform/service';
import { agentService } from './service.js';

await runService(agentService);
