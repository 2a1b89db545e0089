import { runService } from '@xv/platform';
import { trustService } from './service.js';

await runService(trustService);
