/**
 * What a person sees, walked in Chromium against the whole platform (each service
 * in its own process, as `npm start` runs them), item by item as the product
 * promises it: one shell on every page, onboarding by invitation, the account
 * console, knowledge for people, a chat that renders, a verify page that
 * explains, the credential pages, and all of it in two languages. Every page
 * visited is checked with axe-core (no serious or critical violation) with its
 * Content-Security-Policy in force (nothing blocked), and kept as a screenshot
 * under test-results/walkthrough/.
 *
 * The walk runs once, on SQLite; the journey (e2e/journey.test.ts) runs on both
 * databases.
 */
import {
  axeViolations,
  describeFindings,
  hasChromium,
  launchBrowser,
  recordCspViolations,
  screenshots,
  testDatabaseTargets,
} from '@xv/platform/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Person, register } from './support/journey-pages.js';
import { type Platform, startPlatform } from './support/platform.js';
import { walkAccount, walkCredentials, walkInvitation } from './support/walkthrough-account.js';
import { walkChat, walkKnowledge, walkVerify } from './support/walkthrough-content.js';
import type { Walk } from './support/walkthrough-walk.js';

const onSqlitePass = testDatabaseTargets().some((target) => target.dialect === 'sqlite');

const run = Date.now().toString(36);
const ada: Person = {
  name: 'Ada Nguyen',
  email: `ada-${run}@lotus-logistics.test`,
  password: 'correct horse battery',
  orgName: 'Lotus Logistics',
};

// The platform runs on SQLite files here: the PostgreSQL pass has nothing to add.
describe.runIf(hasChromium() && onSqlitePass)('a walk through every page a person sees', () => {
  let platform: Platform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const shoot = screenshots('walkthrough');
  const findings: string[] = [];
  const cspReports: unknown[][] = [];
  let walk: Walk;

  // Each item builds on the one before: after a failure the rest are skipped, not failed again.
  let broken = false;
  const item = (name: string, body: () => Promise<void>, timeout = 90_000) =>
    it(name, { timeout }, async (context) => {
      if (broken) context.skip();
      try {
        await body();
      } catch (error) {
        broken = true;
        await shoot(walk.adaPage, 'failed').catch(() => undefined);
        console.error(
          `failed at ${walk.adaPage.url()}:\n${(
            await walk.adaPage
              .locator('main')
              .textContent()
              .catch(() => '')
          )?.slice(0, 1500)}`,
        );
        throw error;
      }
    });

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startPlatform({ compiled: true }), launchBrowser()]);
    const person = async (locale = 'en-GB') => {
      const context = await browser.newContext({
        viewport: { width: 1100, height: 900 },
        locale,
      });
      context.setDefaultTimeout(20_000);
      contexts.push(context);
      const page = await context.newPage();
      // Every page keeps its Content-Security-Policy; anything it blocks is a finding.
      const blocked = await recordCspViolations(page);
      cspReports.push(blocked);
      return page;
    };
    walk = {
      url: (service, path = '') => `${platform.url(service)}${path}`,
      platform,
      ada,
      adaPage: await person(),
      person,
      /** The page as it is now: a screenshot, and axe's findings collected for the last item. */
      seen: async (page: Page, name: string) => {
        await page.waitForLoadState('networkidle').catch(() => undefined);
        findings.push(...describeFindings(name, await axeViolations(page)));
        for (const report of cspReports)
          for (const blocked of report.splice(0))
            findings.push(`${name}: CSP blocked ${JSON.stringify(blocked)}`);
        await shoot(page, name);
      },
    };
  });

  afterAll(async () => {
    if (broken && platform)
      for (const instance of platform.instances)
        console.error(`--- ${instance.service}#${instance.index}\n${instance.output.slice(-30).join('')}`);
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await platform?.stop();
  });

  item(
    'one shell: every service’s root is a page with the same header, the person and the organization',
    async () => {
      const page = walk.adaPage;
      await register(page, platform.url('identity'), ada);
      await walk.seen(page, 'account-new');
      const sections = page.getByRole('navigation', { name: 'Sections' });
      for (const [service, section] of [
        ['identity', 'Account'],
        ['knowledge', 'Knowledge'],
        ['agent', 'Assistant'],
        ['trust', 'Verify'],
      ] as const) {
        await page.goto(walk.url(service, service === 'identity' ? '/account' : '/'));
        expect(await sections.getByRole('link', { name: section }).getAttribute('aria-current')).toBe('page');
        expect(await page.locator('header.site .viewer').textContent()).toContain(ada.name);
        expect(await page.locator('header.site .viewer').textContent()).toContain(ada.orgName);
        expect(await sections.getByRole('link', { name: 'Review queue' }).count()).toBe(1);
        await walk.seen(page, `shell-${service}`);
      }
      for (const service of ['chain', 'orchestration'] as const) {
        const response = await page.goto(walk.url(service));
        expect(response?.status()).toBe(200);
        expect(await page.locator('header.site').count()).toBe(1);
        await walk.seen(page, `shell-${service}`);
      }
      // The theme follows the reader's choice, remembered on every service from the first byte.
      const toggle = (name: string) =>
        Promise.all([page.waitForResponse('**/theme'), page.getByRole('button', { name }).click()]);
      await page.goto(walk.url('trust'));
      await toggle('Switch to the dark theme');
      expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
      await page.goto(walk.url('knowledge'));
      expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
      await walk.seen(page, 'shell-dark');
      await toggle('Switch to the light theme');
      expect(findings).toEqual([]);
    },
  );

  item(
    'onboarding by invitation: invite, outbox, sign up from the link, join; resend and revoke',
    async () => {
      await walkInvitation(walk);
      expect(findings).toEqual([]);
    },
  );

  item('the account console: sessions, profile, password, e-mail, security log, recovery codes', async () => {
    await walkAccount(walk);
    expect(findings).toEqual([]);
  });

  item(
    'knowledge for people: the reader, search, the author’s view with the reviewer’s note and diff',
    async () => {
      await walkKnowledge(walk);
      expect(findings).toEqual([]);
    },
  );

  item(
    'a chat that renders: Markdown while streaming, sources linked to the reader; without a model, quotes',
    async () => {
      await walkChat(walk);
      expect(findings).toEqual([]);
    },
  );

  item(
    'a verify page that explains: the original checked, the issuer named, the transaction shown',
    async () => {
      await walkVerify(walk);
      expect(findings).toEqual([]);
    },
  );

  item(
    'credential pages: issued once, claims decoded with copy buttons, a short wallet QR code',
    async () => {
      await walkCredentials(walk);
      expect(findings).toEqual([]);
    },
  );

  item('two languages: Vietnamese from the browser, the switch remembered on every service', async () => {
    const visitor = await walk.person('vi-VN');
    await visitor.goto(walk.url('identity', '/login'));
    expect(await visitor.locator('html').getAttribute('lang')).toBe('vi');
    expect(await visitor.getByRole('navigation', { name: 'Các mục' }).count()).toBe(1);
    expect(await visitor.getByRole('heading', { level: 1 }).textContent()).toBe('Đăng nhập');
    await walk.seen(visitor, 'language-vi-login');
    for (const service of ['knowledge', 'agent', 'trust', 'chain', 'orchestration'] as const) {
      await visitor.goto(walk.url(service));
      expect(await visitor.locator('html').getAttribute('lang'), service).toBe('vi');
      await walk.seen(visitor, `language-vi-${service}`);
    }
    // Ada's browser speaks English; she switches to Vietnamese on one service and finds it on the others.
    const page = walk.adaPage;
    await page.goto(walk.url('knowledge'));
    await page.getByRole('link', { name: 'Tiếng Việt' }).click();
    await page.waitForURL(walk.url('knowledge', '/'));
    expect(await page.locator('html').getAttribute('lang')).toBe('vi');
    await page.goto(walk.url('identity', '/account'));
    expect(await page.locator('html').getAttribute('lang')).toBe('vi');
    expect(await page.getByRole('link', { name: 'Tài khoản' }).getAttribute('aria-current')).toBe('page');
    await walk.seen(page, 'language-vi-account');
    await page.getByRole('link', { name: 'English' }).click();
    await page.waitForURL(walk.url('identity', '/account'));
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(findings).toEqual([]);
  });
});
