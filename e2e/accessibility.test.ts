/**
 * Every page of every service, checked with axe-core in Chromium against the whole
 * platform (each service in its own process, as in the journey): signed out and
 * signed in as an organization's administrator, in the light and the dark theme,
 * and on a 360 px wide phone, in English and in Vietnamese. A serious or critical violation fails the test; so
 * does a page that scrolls sideways on the phone, or a service whose root `/` is
 * not a page. Each page is kept as a screenshot under test-results/accessibility/.
 *
 * axe is evaluated from node_modules through the browser's debugging protocol, so
 * the pages keep their Content-Security-Policy while they are audited.
 */
import { SERVICE_NAMES, type ServiceName } from '@xv/platform';
import {
  axeViolations,
  hasChromium,
  launchBrowser,
  screenshots,
  testDatabaseTargets,
} from '@xv/platform/testing';

import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Person, register } from './support/journey-pages.js';
import { type Platform, startPlatform } from './support/platform.js';

const onSqlitePass = testDatabaseTargets().some((target) => target.dialect === 'sqlite');

const PHONE_WIDTH = 360;

/** A page to check: its name in reports and screenshots, its address, the status it answers (200). */
type AuditedPage = [name: string, address: string, status?: number];

/**
 * How much wider than the phone's screen the page is (0: no sideways scrolling). A
 * mobile browser widens its layout to content that does not fit, so the measure is
 * the screen's width, not the window's.
 */
async function sidewaysOverflow(page: Page): Promise<number> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  return Math.max(0, width - PHONE_WIDTH);
}

// The platform runs on SQLite files here: the PostgreSQL pass has nothing to add.
describe.runIf(hasChromium() && onSqlitePass)('accessibility of every page', () => {
  let platform: Platform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const shoot = screenshots('accessibility');
  const url = (service: ServiceName, path = '/') => `${platform.url(service)}${path}`;
  const ada: Person = {
    name: 'Ada Nguyen',
    email: `ada-${Date.now().toString(36)}@lotus-logistics.test`,
    password: 'correct horse battery',
    orgName: 'Lotus Logistics',
  };

  const newContext = async (options: BrowserContextOptions = {}) => {
    const context = await browser.newContext({
      viewport: { width: 1100, height: 900 },
      ...options,
    });
    context.setDefaultTimeout(20_000);
    contexts.push(context);
    return context;
  };

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startPlatform(), launchBrowser()]);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await platform?.stop();
  });

  /** Visits each page in each context; collects what fails instead of stopping at the first page. */
  async function audit(who: string, pages: AuditedPage[], signedIn?: BrowserContext) {
    const state = signedIn ? await signedIn.storageState() : undefined;
    const variants: [string, BrowserContextOptions][] = [
      ['light', { colorScheme: 'light' }],
      ['dark', { colorScheme: 'dark' }],
      ['phone', { colorScheme: 'light', viewport: { width: PHONE_WIDTH, height: 740 }, isMobile: true }],
      // Vietnamese runs longer than English: the narrowest screen shows whether it still fits.
      [
        'phone-vi',
        {
          colorScheme: 'light',
          viewport: { width: PHONE_WIDTH, height: 740 },
          isMobile: true,
          locale: 'vi-VN',
        },
      ],
    ];
    const problems: string[] = [];
    for (const [variant, options] of variants) {
      const context = await newContext({ ...options, ...(state ? { storageState: state } : {}) });
      const page = await context.newPage();
      for (const [name, address, expected = 200] of pages) {
        const response = await page.goto(address);
        if (response?.status() !== expected)
          problems.push(`${who}/${name}: ${address} answered ${response?.status()}, not ${expected}`);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        for (const v of await axeViolations(page))
          problems.push(
            `${who}/${name} [${variant}]: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`,
          );
        if (variant.startsWith('phone')) {
          const overflow = await sidewaysOverflow(page);
          if (overflow > 0)
            problems.push(`${who}/${name} [${variant}]: ${overflow} px of sideways scrolling`);
        }
        await shoot(page, `${who}-${name}-${variant}`);
      }
      await context.close();
    }
    return problems;
  }

  it('every service answers its root `/` with a page', { timeout: 60_000 }, async () => {
    const context = await newContext();
    const page = await context.newPage();
    for (const service of SERVICE_NAMES) {
      const response = await page.goto(url(service));
      expect(response?.status(), `${service} /`).toBeLessThan(400);
      expect(await page.locator('main').count(), `${service} / has a main landmark`).toBeGreaterThan(0);
    }
  });

  it('signed out: no serious or critical violation', { timeout: 240_000 }, async () => {
    const problems = await audit('signed-out', [
      ['identity-login', url('identity', '/login')],
      ['identity-register', url('identity', '/register')],
      ['assistant', url('agent')],
      ['verify', url('trust')],
      ['verify-unknown', url('trust', '/verify/rcpt_00000000000000000000000000'), 404],
      ['chain-explorer', url('chain')],
      ['chain-lookup-invalid', url('chain', '/tx?hash=nope'), 400],
      ['lead-form', url('orchestration')],
      ['identity-api-reference', url('identity', '/docs')],
      ['trust-api-reference', url('trust', '/docs')],
    ]);
    expect(problems).toEqual([]);
  });

  it('signed in as an administrator: no serious or critical violation', { timeout: 300_000 }, async () => {
    const context = await newContext();
    const page = await context.newPage();
    await register(page, platform.url('identity'), ada).catch(async (error) => {
      await shoot(page, 'admin-registration-failed');
      throw error;
    });
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await page.goto(url('knowledge'));
    expect(await page.locator('header.site .viewer').textContent()).toContain(ada.name);
    expect(await sections.getByRole('link', { name: 'Knowledge' }).getAttribute('aria-current')).toBe('page');
    expect(await sections.getByRole('link', { name: 'Review queue' }).count()).toBe(1);
    await page.goto(url('agent'));
    expect(await sections.getByRole('link', { name: 'Assistant' }).getAttribute('aria-current')).toBe('page');
    expect(await page.locator('header.site .viewer').textContent()).toContain(ada.name);

    const problems = await audit(
      'admin',
      [
        ['account', url('identity', '/account')],
        ['knowledge-library', url('knowledge')],
        ['knowledge-search', url('knowledge', '/library?q=leave')],
        ['knowledge-reader-missing', url('knowledge', '/library/doc_missing'), 404],
        ['knowledge-mine', url('knowledge', '/mine')],
        ['knowledge-review', url('knowledge', '/review')],
        ['knowledge-tokens', url('knowledge', '/tokens')],
        ['assistant', url('agent')],
        ['verify', url('trust')],
        ['chain-explorer', url('chain')],
        ['lead-form', url('orchestration')],
      ],
      context,
    );
    expect(problems).toEqual([]);
  });

  it('the theme toggle switches to dark and is remembered', { timeout: 60_000 }, async () => {
    const context = await newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(url('trust'));
    const toggle = page.getByRole('button', { name: 'Switch to the dark theme' });
    await Promise.all([page.waitForResponse('**/theme'), toggle.click()]);
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.goto(url('trust', '/verify'));
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(17, 24, 39)');
  });
});
