import { runService } from '@xv/platform';
import { chainService } from './service.js';

await runService(chainService);
