import { runService } from '@xv/platform/service';
import { orchestrationService } from './service.js';

await runService(orchestrationService);
