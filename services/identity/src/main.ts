import { runService } from '@xv/platform/service';
import { identityService } from './service.js';

await runService(identityService);
