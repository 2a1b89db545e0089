/**
 * The library and the reader in a real browser (Debian Chromium through
 * playwright-core): the pages load their styles without a single violation of
 * the Content-Security-Policy, and a hostile document runs nothing.
 */
import { describeEachDatabase, hasChromium, launchBrowser } from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish, startWorld, type World } from './helpers.js';

const DOCUMENT = `---
owner: People team
---
# Parental leave

<img src="x" onerror="window.__xss = 'img'">

Sixteen weeks of **paid** leave.
`;

describe.runIf(hasChromium())('library in a browser', () => {
  describeEachDatabase('library pages', (target) => {
    let world: World;
    let browser: Browser;
    let docId: string;

    beforeAll(async () => {
      world = await startWorld(target);
      browser = await launchBrowser();
      docId = await publish(world, 'people/parental-leave.md', DOCUMENT);
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('searches, opens the reader, and breaks no policy on the way', async () => {
      const context = await browser.newContext({ locale: 'fr-FR' });
      context.setDefaultTimeout(5000);
      await context.addCookies(
        world.member.cookie.split('; ').map((pair) => {
          const [name, ...rest] = pair.split('=');
          return { name: name!, value: rest.join('='), url: world.kb.url };
        }),
      );
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (/Content[- ]Security[- ]Policy|Refused to/i.test(message.text())) problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));

      await page.goto(`${world.kb.url}/`);
      expect(await page.locator('#documents').innerText()).toContain('people/parental-leave.md');
      await page.fill('#q', 'parental leave');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/\/library\?q=/);
      expect(await page.locator('#hits mark').first().innerText()).toMatch(/leave|parental/i);
      await page.locator('#hits a').first().click();
      await page.waitForURL(`${world.kb.url}/library/${docId}`);
      expect((await page.locator('h1').innerText()).trim()).toBe('Parental leave');
      expect(await page.locator('#front-matter').innerText()).toContain('People team');
      expect(await page.locator('#rendered strong').innerText()).toBe('paid');
      expect(await page.locator('#rendered img').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
      // The stylesheets came from 'self' and applied: the front matter table is styled.
      expect(await page.locator('#front-matter').evaluate((el) => getComputedStyle(el).width)).not.toBe('');
      expect(problems).toEqual([]);
      await context.close();
    });

    it('speaks Vietnamese to a Vietnamese browser, in the page and in its script, and keeps the switch', async () => {
      const context = await browser.newContext({ locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh' });
      context.setDefaultTimeout(5000);
      await context.addCookies(
        world.member.cookie.split('; ').map((pair) => {
          const [name, ...rest] = pair.split('=');
          return { name: name!, value: rest.join('='), url: world.kb.url };
        }),
      );
      const page = await context.newPage();
      await page.goto(`${world.kb.url}/`);
      expect(await page.locator('html').getAttribute('lang')).toBe('vi');
      expect((await page.locator('h1').innerText()).trim()).toBe('Thư viện');
      // The shell script labels the theme switch in the page's language.
      await expect
        .poll(() => page.locator('[data-theme-toggle]').innerText())
        .toMatch(/^Giao diện (tối|sáng)$/);
      await page.getByLabel('Tìm kiếm trong kho tri thức').fill('parental leave');
      await page.getByRole('button', { name: 'Tìm kiếm', exact: true }).click();
      await page.waitForURL(/\/library\?q=/);
      await page.locator('#hits a').first().click();
      await page.waitForURL(`${world.kb.url}/library/${docId}`);
      expect(await page.locator('.meta').innerText()).toMatch(
        /^Đã duyệt · .* · phiên bản 1 · duyệt ngày \d{1,2} thg \d{1,2}, \d{4}$/,
      );

      // The choice is remembered: English from now on, on this page and the next.
      await page.getByRole('link', { name: 'English' }).click();
      await page.waitForURL(`${world.kb.url}/library/${docId}`);
      expect(await page.locator('.meta').innerText()).toMatch(/^Approved · /);
      await page.goto(`${world.kb.url}/mine`);
      expect((await page.locator('h1').innerText()).trim()).toBe('My documents');
      await context.close();
    });
  });
});
