/**
 * The credentials pages in a real browser (Debian's Chromium, driven by playwright-core): a person
 * issues a credential from the form, lands on its result page (post-redirect-get), reloads it
 * without issuing again, copies a claim and the SD-JWT with the copy buttons, and creates a wallet
 * offer. No CSP violation on the way, and axe-core finds no serious or critical violation.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openDatabase } from '@xv/platform';
import { listen } from '@xv/platform/http';
import { buildService } from '@xv/platform/service';
import {
  freePort,
  hasChromium,
  launchBrowser,
  recordCspViolations,
  screenshots,
  tempDir,
} from '@xv/platform/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityService } from '../src/service.js';
import { signUp } from '../src/testing/index.js';
import { email } from './helpers.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page, as `rule: target` lines. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.runIf(hasChromium())('the credentials pages in the browser', () => {
  let browser: Browser;
  let base: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    const dataDir = tempDir();
    const database = await openDatabase({ service: 'identity', dataDir });
    const built = await buildService(identityService, {
      database,
      env: {
        XV_LOG_LEVEL: 'silent',
        XV_DATA_DIR: dataDir,
        XV_IDENTITY_PORT: String(port),
        XV_IDENTITY_URL: base,
      },
    });
    const server = await listen(built.app, port, '127.0.0.1');
    stop = async () => {
      await server.close(500);
      await built.close();
      await database.close();
    };
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
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.locator('#issue-type').selectOption('IdentityCredential');
    await page.getByRole('button', { name: 'Issue' }).click();
    await page.waitForURL(/\/account\/credentials\/vc_[0-9a-z]{26}\?notice=issued$/);
    await expect(page.getByRole('status').filter({ hasText: 'Credential issued.' }).count()).resolves.toBe(1);
    await shot(page, 'issued');
    expect(await accessibilityProblems(page)).toEqual([]);
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
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });
});
