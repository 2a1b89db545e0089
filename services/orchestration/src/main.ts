import { runService } from '@xv/platform';
import { orchestrationService } from './service.js';

await runService(orchestrationService);
