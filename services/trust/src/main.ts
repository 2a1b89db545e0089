import { runService } from '@xv/platform/service';
import { trustService } from './service.js';

await runService(trustService);
