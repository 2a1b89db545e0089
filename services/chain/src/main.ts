import { runService } from '@xv/platform/service';
import { chainService } from './service.js';

await runService(chainService);
