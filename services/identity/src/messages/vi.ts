import type { Translation } from '@xv/platform/i18n';
import type { en } from './en.js';
import { viAccount } from './vi-account.js';
import { viOidc } from './vi-oidc.js';
import { viPages } from './vi-pages.js';

/** What the identity service's pages, browser scripts and e-mails say, in Vietnamese. */
export const vi: Translation<typeof en> = { ...viPages, ...viAccount, ...viOidc };
