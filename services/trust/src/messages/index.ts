import { defineMessages, type Translate } from '@xv/platform/i18n';
import { en } from './en.js';
import { vi } from './vi.js';

/** The trust service's catalogue, one per language: its pages and its browser scripts. */
export const messages = defineMessages(en, vi);
export type MessageKey = keyof typeof en;
/** A translator over the trust catalogue, in one language. */
export type TrustTranslate = Translate<typeof en>;
