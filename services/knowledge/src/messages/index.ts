import { defineMessages, type Translate } from '@xv/platform/i18n';
import { en } from './en.js';
import { vi } from './vi.js';

/** The knowledge service's catalogue, one per language. */
export const messages = defineMessages(en, vi);
export type MessageKey = keyof typeof en;
export type KnowledgeT = Translate<typeof en>;
