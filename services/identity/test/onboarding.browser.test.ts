import { hasChromium, launchBrowser, recordCspViolations } from '@xv/platform/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOnLocalhost } from '../src/testing/index.js';
import { email } from './helpers.js';

describe.runIf(hasChromium())('onboarding by invitation and the account console in the browser', () => {
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

  async function register(page: Page, person: { name: string; email: string; org?: string }) {
    await page.getByLabel('Your name').fill(person.name);
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Password (at least 6 characters)').fill('correct horse');
    if (person.org) await page.getByLabel('Organization').fill(person.org);
    await page.getByRole('button', { name: 'Create account' }).click();
  }

  /** Opens the newest outbox e-mail to `to` and follows its link. */
  async function followMailedLink(page: Page, to: string, subject: RegExp) {
    await page.goto(`${base}/dev/outbox`);
    const mail = page.getByRole('article').filter({ hasText: to }).filter({ hasText: subject }).first();
    await mail.getByRole('link').first().click();
  }

  it('invites, joins through the e-mailed link, resets a forgotten password and signs out another session', {
    timeout: 90_000,
  }, async () => {
    const admin = await browser.newContext();
    const adminPage = await admin.newPage();
    const violations = await recordCspViolations(adminPage);
    await adminPage.goto(`${base}/register`);
    await register(adminPage, { name: 'Ada', email: email('ada'), org: 'Analytical Engines' });
    await adminPage.waitForURL(`${base}/account`);

    const colleague = email('rae');
    await adminPage.getByLabel('E-mail address to invite').fill(colleague);
    await adminPage.getByLabel('Role of the invitee').selectOption('reviewer');
    await adminPage.getByRole('button', { name: 'Send invitation' }).click();
    await adminPage.getByText(`Invitation sent to ${colleague}.`).waitFor();
    const invitations = adminPage.getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('cell', { name: colleague }).waitFor();

    const invitee = await browser.newContext();
    const page = await invitee.newPage();
    const inviteeViolations = await recordCspViolations(page);
    await followMailedLink(page, colleague, /invited to join Analytical Engines/);
    await page.getByRole('heading', { name: 'Join Analytical Engines' }).waitFor();
    await page.getByRole('link', { name: `Create one with ${colleague}` }).click();
    await expect(page.getByLabel('E-mail address').inputValue()).resolves.toBe(colleague);
    // Joining, she founds no organization of her own.
    await expect(page.getByLabel('Organization').count()).resolves.toBe(0);
    await register(page, { name: 'Rae', email: colleague });
    await page.getByRole('button', { name: 'Join Analytical Engines' }).click();
    await page.waitForURL(`${base}/account?notice=joined`);
    const organizations = page.getByRole('region', { name: 'Organizations' });
    await expect(
      organizations.getByRole('row', { name: /Analytical Engines reviewer active/ }).count(),
    ).resolves.toBe(1);
    // The invitation is used up: no longer pending for the admin.
    await adminPage.reload();
    await expect(invitations.getByRole('cell', { name: colleague }).count()).resolves.toBe(0);

    // Rae forgets the password (another browser), resets it by e-mail, and her first session ends.
    const elsewhere = await browser.newContext();
    const other = await elsewhere.newPage();
    await other.goto(`${base}/login`);
    await other.getByRole('link', { name: 'Forgot your password?' }).click();
    await other.getByLabel('Your e-mail address').fill(colleague);
    await other.getByRole('button', { name: 'Send me a link' }).click();
    await other.getByText('a link to choose a new password is on its way').waitFor();
    await followMailedLink(other, colleague, /Reset your XV password/);
    await other.getByLabel('New password (at least 6 characters)').fill('new horse');
    await other.getByRole('button', { name: 'Set the new password' }).click();
    await other.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.goto(`${base}/account`);
    await page.waitForURL(/\/login/);

    // She signs in twice with the new password and signs the other browser out, after confirming.
    for (const browserPage of [page, other]) {
      await browserPage.goto(`${base}/login`);
      await browserPage.getByLabel('E-mail address').fill(colleague);
      await browserPage.getByLabel('Password').fill('new horse');
      await browserPage.getByRole('button', { name: 'Sign in', exact: true }).click();
      await browserPage.waitForURL(`${base}/account`);
    }
    await page.reload();
    const sessions = page.getByRole('region', { name: 'Sessions and devices' });
    await sessions.getByText('Sign out…').click();
    // The confirmation names the device; it ends the other session without reloading this page.
    const dialog = page.getByRole('dialog', { name: 'Sign out this session?' });
    await expect(dialog.getByText(/will be signed out at once/).count()).resolves.toBe(1);
    await dialog.getByRole('button', { name: 'Sign out this session' }).click();
    await sessions.getByText('That session is signed out.').waitFor();
    await expect(sessions.getByText('Sign out…').count()).resolves.toBe(0);
    await other.reload();
    await other.waitForURL(/\/login/);
    const log = page.getByRole('region', { name: 'Security log' });
    await expect(log.getByText('Password reset by e-mail').count()).resolves.toBe(1);

    expect(violations).toEqual([]);
    expect(inviteeViolations).toEqual([]);
  });
});
