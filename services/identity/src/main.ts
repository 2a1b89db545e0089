import { runService } from '@xv/platform';
import { identityService } from './service.js';

await runService(identityService);
