/**
 * The lead form in a real browser (Chromium): with ALTCHA on, the page's
 * bundled script (`src/client/lead.ts`) solves the proof of work and the lead is stored.
 */
import { openDatabase } from '@xv/platform';
import { launchBrowser, recordCspViolations, startService, tempDir } from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orchestrationService } from '../src/service.js';
import type { RunningOrchestration } from './helpers.js';

const ADMIN_TOKEN = 'operator-token-0123456789';

describe('lead form page in a browser', () => {
  let service: RunningOrchestration;
  let browser: Browser;

  beforeAll(async () => {
    service = await startService(orchestrationService, {
      database: await openDatabase({ service: 'orchestration', dataDir: tempDir() }),
      env: { XV_LEAD_CHALLENGE: 'altcha', XV_ALTCHA_MAX_NUMBER: '5000', XV_ORCH_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('solves the ALTCHA challenge in the page and stores the lead', async () => {
    const page = await browser.newPage();
    const violations = await recordCspViolations(page);
    // localhost is a secure context, where WebCrypto is available.
    await page.goto(`${service.url.replace('127.0.0.1', 'localhost')}/lead`);
    await page.getByLabel('Name').fill('Browser Person');
    await page.getByLabel('Work e-mail').fill('person@browser.example');
    await page.getByLabel('Company (optional)').fill('Browsers Inc');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/lead\?sent=1$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Thank you');

    const { leads } = await (
      await service.fetch('/api/leads', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).json();
    expect(leads[0]).toMatchObject({ email: 'person@browser.example', company: 'Browsers Inc' });
    expect(violations).toEqual([]);
  });

  it('speaks Vietnamese to a Vietnamese browser, in the page and in its script, and keeps a switch', async () => {
    const context = await browser.newContext({ locale: 'vi-VN' });
    const page = await context.newPage();
    const base = service.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${base}/lead`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('vi');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Liên hệ với chúng tôi',
    );
    await page.getByLabel('Họ và tên').fill('Nguyễn Văn An');
    await page.getByLabel('E-mail công việc').fill('an@gmail.com');
    await page.getByRole('button', { name: 'Gửi' }).click();
    // A personal address is refused in the reader's language, the typed values kept.
    await page.getByText('Hãy dùng e-mail công việc').waitFor();
    await expect(page.getByLabel('Họ và tên').inputValue()).resolves.toBe('Nguyễn Văn An');

    // The switch is remembered: English from now on, on this page and the next.
    await page.getByRole('link', { name: 'English' }).click();
    await page.waitForURL(`${base}/lead`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Talk to us');
    await page.goto(`${base}/`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await context.close();
  });

  it('the form page runs no inline script: every script is a bundled asset of the service', async () => {
    const html = await (await service.fetch('/lead')).text();
    const scripts = html.match(/<script\b[^>]*>/gi) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/ src="\/assets\/[^"]+\.js"/);
    expect(html).not.toMatch(/<script\b[^>]*>[^<]/i);
  });

  it('shows the refusal of a personal address next to the form', async () => {
    const page = await browser.newPage();
    await page.goto(`${service.url.replace('127.0.0.1', 'localhost')}/lead`);
    await page.getByLabel('Name').fill('Home Person');
    await page.getByLabel('Work e-mail').fill('home@gmail.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForSelector('.status.error');
    expect(await page.getByRole('status').textContent()).toContain('work e-mail');
    expect(await page.getByLabel('Name').inputValue()).toBe('Home Person');
  });
});
