import { defineMessages } from '@xv/platform/i18n';
import { en } from './en.js';
import { vi } from './vi.js';

/** The agent service's catalogue, one per language. */
export const messages = defineMessages(en, vi);
export type MessageKey = keyof typeof en;
