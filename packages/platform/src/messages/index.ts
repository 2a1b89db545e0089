import { defineMessages } from '../i18n.js';
import { en } from './en.js';
import { vi } from './vi.js';

/** The platform's catalogue: what the shell itself says. */
export const shellMessages = defineMessages(en, vi);
