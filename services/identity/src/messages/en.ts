import { enAccount } from './en-account.js';
import { enOidc } from './en-oidc.js';
import { enPages } from './en-pages.js';

/** What the identity service's pages, browser scripts and e-mails say, in English. */
export const en = { ...enPages, ...enAccount, ...enOidc } as const;
