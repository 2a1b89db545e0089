/**
 * @module e2e/support/walkthrough-walk
 * What the walk-through's items share: the platform's addresses, Ada (an
 * organization's administrator) and her page, new people in browsers of their own,
 * and `seen`, which checks a page with axe and keeps its screenshot.
 */
import type { ServiceName } from '@xv/platform';
import type { Page } from 'playwright-core';
import type { Person } from './journey-pages.js';
import type { Platform } from './platform.js';

export interface Walk {
  url(service: ServiceName, path?: string): string;
  platform: Platform;
  ada: Person;
  adaPage: Page;
  /** A new person's page, in a browser of their own speaking `locale` (default British English). */
  person(locale?: string): Promise<Page>;
  seen(page: Page, name: string): Promise<void>;
  /** Bea, who joins by invitation as a reviewer. */
  bea?: { person: Person; page: Page };
}

/** The newest e-mail to `to` in identity's development outbox: its subject and the first link that matches. */
export async function mailTo(walk: Walk, page: Page, to: string, link: RegExp) {
  await page.goto(walk.url('identity', '/dev/outbox'));
  const mail = page.locator('article.mail').filter({ hasText: to }).first();
  await mail.waitFor();
  const hrefs = await mail
    .locator('a')
    .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  const href = hrefs.find((h) => link.test(h));
  if (!href) throw new Error(`No link matching ${link} in the e-mail to ${to}: ${hrefs.join(', ')}`);
  return { subject: (await mail.locator('h2').textContent()) ?? '', href };
}
