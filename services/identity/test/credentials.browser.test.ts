import {
  axeViolations,
  hasChromium,
  launchBrowser,
  recordCspViolations,
  screenshots,
} from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOnLocalhost, signUp } from '../src/testing/index.js';
import { email } from './helpers.js';

describe.runIf(hasChromium())('the credentials pages in the browser', () => {
  let browser: Browser;
  let base: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ base, stop } = await serveOnLocalhost());
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  it('issues once, shows the claims decoded, copies them, and offers a short wallet QR code', async () => {
    const person = await signUp(base, {
      email: email('vc-browser'),
      password: 'secret1',
      name: 'Bea',
      orgName: 'B',
    });
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const [name, value] = person.cookie.split(';')[0]!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);
    const page = await context.newPage();
    const violations = await recordCspViolations(page);
    const shot = screenshots('identity-credentials');

    await page.goto(`${base}/account/credentials`);
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('#issue-type').selectOption('IdentityCredential');
    await page.getByRole('button', { name: 'Issue' }).click();
    await page.waitForURL(/\/account\/credentials\/vc_[0-9a-z]{26}\?notice=issued$/);
    await expect(page.getByRole('status').filter({ hasText: 'Credential issued.' }).count()).resolves.toBe(1);
    await shot(page, 'issued');
    expect(await axeViolations(page)).toEqual([]);
    const sdjwt = await page.locator('#sdjwt').inputValue();
    expect(sdjwt.split('~').length).toBeGreaterThan(2);

    // A reload reads the same credential: nothing is posted again.
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST') posted++;
    });
    await page.reload();
    expect(await page.locator('#sdjwt').inputValue()).toBe(sdjwt);
    expect(posted).toBe(0);

    await page.getByRole('button', { name: 'Copy name' }).click();
    await page.waitForFunction(() =>
      document.getElementById('copy-status')?.textContent?.startsWith('Copied'),
    );
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Bea');
    await page.getByRole('button', { name: 'Copy the SD-JWT' }).click();
    await page.waitForFunction(
      () => document.getElementById('copy-status')?.textContent === 'Copied the SD-JWT.',
    );
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sdjwt);

    await page.goto(`${base}/account/credentials`);
    expect(await page.locator('form[action="/account/credentials/revoke"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Create offer' }).click();
    const link = await page.getByRole('link', { name: 'open it in your wallet app' }).getAttribute('href');
    expect(link).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
    await shot(page, 'wallet-offer');
    expect(await axeViolations(page)).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });
});
