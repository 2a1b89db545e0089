import {
  axeViolations,
  clearOfTimeStepEnd,
  hasChromium,
  launchBrowser,
  screenshots,
} from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/mfa/totp.js';
import { serveOnLocalhost, signIn, signUp } from '../src/testing/index.js';
import { email } from './helpers.js';

describe.runIf(hasChromium())('the account cards in the browser', () => {
  let browser: Browser;
  let base: string;
  let stop: () => Promise<void>;
  const shoot = screenshots('identity-account-cards');

  beforeAll(async () => {
    ({ base, stop } = await serveOnLocalhost());
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  it('2FA, recovery codes, passkeys, service clients, invitations and sessions change in place, each removal confirmed first', {
    timeout: 120_000,
  }, async () => {
    const address = email('cards');
    const password = 'correct horse';
    const person = await signUp(base, { email: address, password, name: 'Cara', orgName: 'Cards Inc' });
    // A session on another device, signed out at the end.
    const other = await signIn(base, address, password);
    // axe is injected as a script file, which the page's CSP would refuse.
    const context = await browser.newContext({
      bypassCSP: true,
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
    });
    const cookieOf = (cookie: string) => {
      const [name, value] = cookie.split(';')[0]!.split('=') as [string, string];
      return { name, value, url: base };
    };
    await context.addCookies([cookieOf(person.cookie)]);
    const page = await context.newPage();
    await page.goto(`${base}/account`);
    /** A mark that a reload would wipe. */
    const markPage = () => page.evaluate(() => Object.assign(window, { notReloaded: true }));
    const notReloaded = () =>
      page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);
    await markPage();
    const dialog = page.getByRole('dialog');

    // Times in the reader's locale (German here), the UTC instant kept in `datetime`.
    const firstTime = page.locator('time[data-local]').first();
    await expect.poll(() => firstTime.textContent()).not.toMatch(/UTC$/);
    await expect(firstTime.getAttribute('datetime')).resolves.toMatch(/Z$/);

    // 2FA on: the card switches state and shows the codes, without a reload.
    await page.getByLabel('Your password').fill(password);
    await page.getByRole('button', { name: 'Set up 2FA' }).click();
    await page.locator('#totp-enrol').waitFor({ state: 'visible', timeout: 10_000 });
    const secret = (await page.locator('#totp-secret').textContent())!;
    await clearOfTimeStepEnd();
    await page.getByLabel('Code from the app').fill(totpCode(secret, Date.now() - 30_000));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.locator('#recovery-codes li').count(), { timeout: 10_000 }).toBe(10);
    await expect(page.locator('#totp-on').isVisible()).resolves.toBe(true);
    await expect(page.locator('#recovery-left').textContent()).resolves.toBe('10 recovery codes left');
    // With a second factor, changes ask for a fresh proof: the password box goes.
    await expect(page.locator('#factor-password-card').isVisible()).resolves.toBe(false);
    expect(await notReloaded()).toBe(true);

    // Authenticator changes now need a recent AAL2: sign in again with a code.
    const aal2 = await signIn(base, address, password, { totpSecret: secret });
    await context.addCookies([cookieOf(aal2.cookie)]);
    await page.goto(`${base}/account`);
    await markPage();

    // New recovery codes: Cancel is the default, Escape cancels, confirming replaces them in place.
    await page.getByText('New recovery codes…').click();
    await dialog.waitFor();
    await expect(dialog.getByRole('heading').textContent()).resolves.toBe('Make new recovery codes?');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Cancel');
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'confirm-recovery-codes');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect(page.locator('#recovery').isVisible()).resolves.toBe(false);
    await page.getByText('New recovery codes…').click();
    await dialog.getByRole('button', { name: 'Make new recovery codes' }).click();
    await expect.poll(() => page.locator('#recovery-codes li').count(), { timeout: 10_000 }).toBe(10);
    const recoveryCode = (await page.locator('#recovery-codes li').first().textContent())!;

    // A passkey joins the list; removing it asks, a Cancel keeps it, a confirmation removes it.
    const cdp = await context.newCDPSession(page);
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
    await page.getByLabel('Name of the new passkey (optional)').fill('Laptop <b>');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const laptop = page.locator('#passkey-list li', { hasText: 'Laptop <b> (AAL3)' });
    await laptop.waitFor({ timeout: 10_000 });
    await expect(page.locator('#passkey-none').isVisible()).resolves.toBe(false);
    await laptop.getByText('Remove…').click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(laptop.count()).resolves.toBe(1);
    await laptop.getByText('Remove…').click();
    await expect(
      dialog.getByText('The passkey “Laptop <b>” will no longer sign you in.').count(),
    ).resolves.toBe(1);
    await dialog.getByRole('button', { name: 'Remove the passkey' }).click();
    await page.getByText('Passkey removed.').waitFor();
    await expect(laptop.count()).resolves.toBe(0);
    await expect(page.locator('#passkey-none').isVisible()).resolves.toBe(true);

    // 2FA off, with a recovery code, after confirming: the card goes back to "Set up 2FA".
    await page.getByText('Turn off 2FA…').click();
    await page.getByLabel('Current code (or a recovery code) to turn it off').fill(recoveryCode);
    await page.locator('#totp-disable-form').getByRole('button', { name: 'Turn off 2FA' }).click();
    await dialog.getByRole('button', { name: 'Turn off 2FA' }).click();
    await page.getByRole('button', { name: 'Set up 2FA' }).waitFor({ timeout: 10_000 });
    await expect(page.locator('#totp-on').isVisible()).resolves.toBe(false);
    // The security log shows it too, as the newest entry, with this browser as the device.
    const newest = page.locator('#security-log tr').first();
    await expect
      .poll(() => newest.textContent(), { timeout: 10_000 })
      .toMatch(/2FA turned off.*Chrome on Linux/);
    await expect(newest.locator('time').textContent()).resolves.not.toMatch(/UTC$/);

    // A service client: its token shown once, then revoked after confirming, and refused from then on.
    const clients = page.getByRole('region', { name: 'Service clients' });
    await clients.getByLabel('Name').fill('nightly import');
    await clients.getByRole('checkbox').first().check();
    await clients.getByRole('button', { name: 'Create service client' }).click();
    const token = page.locator('#client-token');
    await expect.poll(() => token.textContent(), { timeout: 10_000 }).toMatch(/\S{20,}/);
    const secretToken = (await token.textContent())!;
    const created = clients.locator('li', { hasText: 'nightly import' });
    await created.getByText('Revoke…').click();
    await dialog.getByRole('button', { name: 'Revoke the service client' }).click();
    await expect.poll(() => created.count(), { timeout: 10_000 }).toBe(0);
    await expect(token.isVisible()).resolves.toBe(false);
    const me = await fetch(`${base}/api/service-clients/me`, {
      headers: { authorization: `Bearer ${secretToken}` },
    });
    expect(me.status).toBe(401);

    // An invitation joins the table, is sent again, and is revoked after confirming.
    const invitations = page.getByRole('region', { name: 'Invitations' });
    const invitee = email('invitee');
    await invitations.getByLabel('E-mail address to invite').fill(invitee);
    await invitations.getByLabel('Role of the invitee').selectOption('reviewer');
    await invitations.getByRole('button', { name: 'Send invitation' }).click();
    const invited = invitations.getByRole('row', { name: new RegExp(`${invitee} reviewer`) });
    await invited.waitFor({ timeout: 10_000 });
    await expect(invitations.getByText('No pending invitations.').isVisible()).resolves.toBe(false);
    await invited.getByRole('button', { name: 'Resend' }).click();
    await invitations.getByText(/Invitation sent again/).waitFor();
    await invited.getByText('Revoke…').click();
    await dialog.getByRole('button', { name: 'Revoke the invitation' }).click();
    await invitations.getByText('Invitation revoked: its link no longer works.').waitFor();
    await expect(invited.count()).resolves.toBe(0);
    await expect(invitations.getByText('No pending invitations.').isVisible()).resolves.toBe(true);

    // The other sessions end after confirming; their rows leave the table.
    const sessions = page.getByRole('region', { name: 'Sessions and devices' });
    await expect(sessions.locator('tr[data-session]').count()).resolves.toBeGreaterThan(1);
    await sessions.getByText('Sign out all other sessions…').click();
    await dialog.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await sessions.getByText('Your other sessions are signed out.').waitFor();
    await expect(sessions.locator('tr[data-session]').count()).resolves.toBe(1);
    await expect(sessions.getByText('Sign out all other sessions…').count()).resolves.toBe(0);
    expect((await fetch(`${base}/api/session`, { headers: { cookie: other.cookie } })).status).toBe(401);

    expect(await notReloaded()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'account-after');
    await context.close();
  });

  it('the sign-in, registration and reset pages, a failed reset post among them, pass axe with the viewer in the header', {
    timeout: 60_000,
  }, async () => {
    const person = await signUp(base, {
      email: email('axe'),
      password: 'secret1',
      name: 'Axel',
      orgName: 'Axe Inc',
    });
    const context = await browser.newContext({ bypassCSP: true });
    const [name, value] = person.cookie.split(';')[0]!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);
    const page = await context.newPage();
    for (const path of ['/login', '/register', '/password-reset', '/dev/outbox']) {
      await page.goto(`${base}${path}`);
      await expect(page.locator('header .person').textContent(), path).resolves.toBe('Axel');
      expect(await axeViolations(page), path).toEqual([]);
    }
    // A failed post answers with the page: the error announced, the address kept.
    await page.goto(`${base}/password-reset`);
    await page.getByLabel('Your e-mail address').fill('x@y');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByLabel('Your e-mail address').inputValue()).resolves.toBe('x@y');
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'reset-error');
    await context.close();
  });
});
