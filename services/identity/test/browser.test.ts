/**
 * A person in a real browser (Debian's Chromium, driven by playwright-core):
 * registers, turns on 2FA, signs out, signs in with a TOTP code, adds a passkey
 * with Chromium's virtual authenticator, and steps up to AAL3 with it.
 * WebAuthn needs a host name as RP id, so the service is served on http://localhost.
 */

import {
  clearOfTimeStepEnd,
  cspNonceOf,
  hasChromium,
  launchBrowser,
  recordCspViolations,
  scriptTagsWithoutNonce,
} from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/mfa/totp.js';
import {
  createUser,
  registerPasskey,
  SoftwareAuthenticator,
  serveOnLocalhost,
  signUp,
} from '../src/testing/index.js';
import { email } from './helpers.js';

describe.runIf(hasChromium())('a person in the browser', () => {
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

  it('registers, enables 2FA, signs in with TOTP, adds a passkey and steps up to AAL3', {
    timeout: 90_000,
  }, async () => {
    const page = await browser.newPage();
    const violations = await recordCspViolations(page);
    const email = `browser-${Date.now()}@example.test`;

    await page.goto(`${base}/register`);
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password (at least 6 characters)').fill('correct horse');
    await page.getByLabel('Organization').fill('Compilers Inc');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${base}/account`);
    await expect(page.locator('#session-aal').textContent()).resolves.toBe('AAL1');

    // A first second factor needs the password again.
    await page.getByLabel('Your password').fill('correct horse');
    await page.getByRole('button', { name: 'Set up 2FA' }).click();
    await page.locator('#totp-enrol').waitFor({ state: 'visible', timeout: 10_000 });
    const secret = (await page.locator('#totp-secret').textContent({ timeout: 10_000 }))!;
    expect(await page.locator('#totp-qr svg').count()).toBe(1);
    // The previous time step's code (the clock drift window), so the current one is left for the sign-in.
    await clearOfTimeStepEnd();
    await page.getByLabel('Code from the app').fill(totpCode(secret, Date.now() - 30_000));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.locator('#recovery-codes li').count(), { timeout: 10_000 }).toBe(10);

    await page.getByRole('button', { name: 'Sign out of every XV site' }).click();
    await page.waitForURL(`${base}/login`);

    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${base}/login/2fa`);
    await page.getByLabel('Code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${base}/account`);
    await expect(page.locator('#session-aal').textContent()).resolves.toBe('AAL2');

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.getByLabel('Name of the new passkey (optional)').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.getByText('Laptop (AAL3)').count(), { timeout: 10_000 }).toBe(1);

    const target = `${base}/account?done=1`;
    await page.goto(`${base}/step-up?aal=AAL3&redirect=${encodeURIComponent(target)}`);
    await page.waitForURL(/\/login\?/);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(target);
    await expect(page.locator('#session-aal').textContent()).resolves.toBe('AAL3');
    const session = await page.evaluate(async () => (await fetch('/api/session')).json());
    expect(session).toMatchObject({
      aal: 'AAL3',
      user: { email },
      amr: expect.arrayContaining(['pwd', 'otp', 'hwk', 'mfa']),
    });
    expect(violations).toEqual([]);
  });

  it('removing a passkey from a password-only session leads through the step-up to sign in again', {
    timeout: 60_000,
  }, async () => {
    const person = await signUp(base, {
      email: email('stale'),
      password: 'secret1',
      name: 'Sol',
      orgName: 'S',
    });
    await registerPasskey(base, person.cookie, new SoftwareAuthenticator(), { password: 'secret1' });
    const context = await browser.newContext();
    const [name, value] = person.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);
    const page = await context.newPage();
    await page.goto(`${base}/account`);
    await page.locator('li', { hasText: 'Test passkey' }).getByText('Remove…').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove the passkey' }).click();
    await page.waitForURL(/\/login\?/);
    const at = new URL(page.url());
    expect(at.searchParams.get('aal')).toBe('AAL2');
    expect(at.searchParams.get('redirect')).toBe('/account');
    const passkeys = await (
      await fetch(`${base}/api/auth/passkeys`, { headers: { cookie: person.cookie } })
    ).json();
    expect(passkeys.passkeys).toHaveLength(1);
    await context.close();
  });

  it("an admin changes a member's role and removes them on the account page; the last admin stays", {
    timeout: 60_000,
  }, async () => {
    const admin = await signUp(base, {
      email: email('owner'),
      password: 'secret1',
      name: 'Ola',
      orgName: 'Roles Inc',
    });
    const member = await createUser(base, admin.cookie, {
      email: email('member'),
      password: 'secret1',
      name: 'Mia',
      role: 'member',
    });
    const context = await browser.newContext();
    const [name, value] = admin.cookie.split(';')[0]!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);
    const page = await context.newPage();
    const violations = await recordCspViolations(page);
    await page.goto(`${base}/account`);

    const roleOf = (person: string) => page.getByLabel(`Role of ${person}`);
    const rolesOnServer = async () => {
      const response = await fetch(`${base}/api/org/members`, { headers: { cookie: admin.cookie } });
      const { members } = (await response.json()) as { members: { name: string; role: string }[] };
      return Object.fromEntries(members.map((m) => [m.name, m.role]));
    };
    // A change the server accepts stays in place, without a reload.
    await roleOf('Mia').selectOption('reviewer');
    await expect
      .poll(() => page.locator('#member-status').textContent(), { timeout: 10_000 })
      .toBe('Role changed to reviewer.');
    await expect(rolesOnServer()).resolves.toEqual({ Ola: 'admin', Mia: 'reviewer' });
    await expect(roleOf('Mia').inputValue()).resolves.toBe('reviewer');

    // Demoting the only admin is refused: the message shows and the select goes back.
    await roleOf('Ola').selectOption('member');
    await expect
      .poll(() => page.locator('#member-status').textContent(), { timeout: 10_000 })
      .toMatch(/needs an administrator/);
    await expect(roleOf('Ola').inputValue()).resolves.toBe('admin');

    await page.locator('li', { hasText: member.session.user.email }).getByText('Remove…').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove the member' }).click();
    await expect.poll(rolesOnServer, { timeout: 10_000 }).toEqual({ Ola: 'admin' });
    await expect.poll(() => roleOf('Mia').count(), { timeout: 10_000 }).toBe(0);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('every script on the sign-in and account pages carries the nonce of its response', async () => {
    const owner = await signUp(base, {
      email: email('nonce'),
      password: 'secret1',
      name: 'N',
      orgName: 'Nonce Inc',
    });
    for (const path of ['/login', '/login?aal=AAL3', '/register', '/account']) {
      const response = await fetch(`${base}${path}`, {
        headers: { cookie: owner.cookie },
        redirect: 'manual',
      });
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(cspNonceOf(response)).toBeDefined();
      expect(scriptTagsWithoutNonce(html, cspNonceOf(response)), path).toEqual([]);
    }
  });
});
