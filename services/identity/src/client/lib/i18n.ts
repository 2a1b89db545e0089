/**
 * @module client/lib/i18n
 * The identity scripts speak the page's language (`<html lang>`), from the service's catalogue.
 */
import { localeOfTag, translator } from '@xv/platform/i18n';
import { messages } from '../../messages/index.js';

export const locale = localeOfTag(document.documentElement.lang) ?? 'en';
export const t = translator(messages, locale);
