/**
 * @module e2e/support/walkthrough-account
 * The walk-through's identity items: onboarding by invitation, the account
 * console, and the credential pages, done as a person does them on the pages.
 */

import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { enableTwoFactor, type Person, stepUpWithCode } from './journey-pages.js';
import { mailTo, type Walk } from './walkthrough-walk.js';

/** Ada invites Bea as a reviewer; Bea signs up from the e-mailed link and joins. A second invitation is resent, then revoked. */
export async function walkInvitation(walk: Walk) {
  const page = walk.adaPage;
  const run = Date.now().toString(36);
  const bea: Person = {
    name: 'Bea Pham',
    email: `bea-${run}@lotus-logistics.test`,
    password: 'bea reviews everything',
    orgName: '',
  };
  const cy = `cy-${run}@lotus-logistics.test`;
  const invite = async (email: string, role: string) => {
    await page.goto(walk.url('identity', '/account'));
    await page.getByLabel('E-mail address to invite').fill(email);
    await page.getByLabel('Role of the invitee').selectOption(role);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.locator('tr', { hasText: email }).waitFor();
  };
  await invite(bea.email, 'reviewer');
  await invite(cy, 'member');
  const pending = page.getByRole('region', { name: 'Invitations' });
  expect(await pending.getByRole('row').filter({ hasText: bea.email }).textContent()).toContain('reviewer');
  await walk.seen(page, 'invitations-pending');

  // Without SMTP the e-mail waits in the development outbox.
  const mail = await mailTo(walk, page, bea.email, /\/invitations\//);
  expect(mail.subject).toContain(walk.ada.orgName);
  await walk.seen(page, 'dev-outbox');

  const beaPage = await walk.person();
  await beaPage.goto(mail.href);
  await beaPage.getByRole('heading', { name: `Join ${walk.ada.orgName}` }).waitFor();
  await walk.seen(beaPage, 'invitation-open');
  await beaPage.getByRole('link', { name: `Create one with ${bea.email}` }).click();
  await beaPage.getByLabel('Your name').fill(bea.name);
  expect(await beaPage.getByLabel('E-mail address').inputValue()).toBe(bea.email);
  await beaPage.getByLabel(/^Password/).fill(bea.password);
  await walk.seen(beaPage, 'invitation-sign-up');
  await beaPage.getByRole('button', { name: 'Create account' }).click();
  await beaPage.getByRole('button', { name: `Join ${walk.ada.orgName}` }).click();
  await beaPage.waitForURL(/\/account/);
  const membership = beaPage.getByRole('row').filter({ hasText: walk.ada.orgName });
  expect(await membership.textContent()).toContain('reviewer');
  await walk.seen(beaPage, 'invitation-joined');
  walk.bea = { person: bea, page: beaPage };

  // The link is single-use.
  await beaPage.goto(mail.href);
  await beaPage.getByRole('heading', { name: 'Invitation not valid' }).waitFor();

  // Cy's invitation: resent (a second e-mail), then revoked, after which its link is refused.
  await page.goto(walk.url('identity', '/account'));
  const cyRow = page.getByRole('row').filter({ hasText: cy });
  await cyRow.getByRole('button', { name: 'Resend' }).click();
  await pending.getByText(/Invitation sent again/).waitFor();
  const cyMail = await mailTo(walk, page, cy, /\/invitations\//);
  await page.goto(walk.url('identity', '/account'));
  await cyRow.getByText('Revoke…').click();
  await walk.seen(page, 'invitation-confirm-revoke');
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke the invitation' }).click();
  await pending.getByText('Invitation revoked: its link no longer works.').waitFor();
  expect(await page.getByRole('row').filter({ hasText: cy }).count()).toBe(0);
  expect(await pending.getByRole('row').filter({ hasText: bea.email }).count()).toBe(0);
  const stranger = await walk.person();
  await stranger.goto(cyMail.href);
  await stranger.getByRole('heading', { name: 'Invitation not valid' }).waitFor();
}

/** Signs `person` in on the sign-in page of `page`'s browser; resolves on `/account`. */
async function signIn(walk: Walk, page: Page, person: { email: string; password: string }) {
  await page.goto(walk.url('identity', '/login'));
  await page.getByLabel('E-mail address').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(walk.url('identity', '/account'));
}

/**
 * Ada's account console: she ends the session of another device, names herself, verifies her e-mail
 * from the link, changes her password, turns on 2FA and makes new recovery codes, each card changing
 * in place; the security log shows it all with address and device. Bea resets a forgotten password by e-mail.
 */
export async function walkAccount(walk: Walk) {
  const page = walk.adaPage;
  const ada = walk.ada;
  const dialog = page.getByRole('dialog');
  const account = walk.url('identity', '/account');

  // Another device: its session is listed, and ended from here after confirming.
  const phone = await walk.person();
  await signIn(walk, phone, ada);
  await page.goto(account);
  const sessions = page.getByRole('region', { name: 'Sessions and devices' });
  expect(await sessions.locator('tr[data-session]').count()).toBe(2);
  await walk.seen(page, 'account-sessions');
  await sessions.getByText('Sign out all other sessions…').click();
  await dialog.waitFor();
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
  await walk.seen(page, 'account-confirm-sign-out');
  await dialog.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await sessions.getByText('Your other sessions are signed out.').waitFor();
  expect(await sessions.locator('tr[data-session]').count()).toBe(1);
  await phone.goto(account);
  await phone.waitForURL(/\/login/);

  // Profile: the new name is what every header shows.
  await page.getByLabel('Display name').fill('Ada Nguyễn');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect.poll(() => page.locator('header.site .person').textContent()).toBe('Ada Nguyễn');
  await page.goto(walk.url('knowledge', '/'));
  expect(await page.locator('header.site .person').textContent()).toBe('Ada Nguyễn');

  // E-mail verification through the link in the e-mail.
  await page.goto(account);
  await page.getByRole('button', { name: 'Send me a verification link' }).click();
  const verification = await mailTo(walk, page, ada.email, /\/verify-email\//);
  await page.goto(verification.href);
  await page.getByRole('button', { name: `Verify ${ada.email}` }).click();
  await page.getByRole('heading', { name: 'E-mail address verified' }).waitFor();
  await page.goto(account);
  expect(await page.locator('[data-email-verified]').getAttribute('data-email-verified')).toBe('yes');

  // A new password.
  const newPassword = 'a longer horse battery';
  await page.getByLabel('Current password').fill(ada.password);
  await page.getByLabel('New password (at least 6 characters)').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.locator('#security-log tr[data-event="password_changed"]').waitFor();
  ada.password = newPassword;

  // 2FA, then new recovery codes after confirming, at AAL2.
  const { secret } = await enableTwoFactor(page, walk.url('identity'), ada.password);
  await stepUpWithCode(page, walk.url('identity'), ada, secret);
  await page.getByText('New recovery codes…').click();
  await dialog.getByRole('button', { name: 'Make new recovery codes' }).click();
  await expect.poll(() => page.locator('#recovery-codes li').count(), { timeout: 10_000 }).toBe(10);
  await walk.seen(page, 'account-recovery-codes');

  // The security log: what happened, when, from which address and device.
  await page.goto(account);
  const log = page.locator('#security-log');
  for (const kind of ['sign_in', 'sessions_ended', 'email_verified', 'password_changed', 'totp_enabled'])
    expect(await log.locator(`tr[data-event="${kind}"]`).count(), kind).toBeGreaterThan(0);
  const signIn1 = log.locator('tr[data-event="sign_in"]').first().locator('td');
  expect(await signIn1.nth(2).textContent()).toMatch(/127\.0\.0\.1|::1/);
  expect(await signIn1.nth(3).textContent()).toMatch(/Chrom/);
  await walk.seen(page, 'account-security-log');

  // Bea forgot her password: a link by e-mail, a new password, signed in with it.
  const bea = walk.bea;
  if (!bea) throw new Error('Bea joins by invitation first.');
  const stranger = await walk.person();
  await stranger.goto(walk.url('identity', '/password-reset'));
  await stranger.getByLabel('Your e-mail address').fill(bea.person.email);
  await stranger.getByRole('button', { name: 'Send me a link' }).click();
  await stranger.getByRole('status').or(stranger.locator('.notice')).first().waitFor();
  await walk.seen(stranger, 'password-reset-sent');
  const reset = await mailTo(walk, page, bea.person.email, /\/password-reset\//);
  await bea.page.goto(reset.href);
  bea.person.password = 'bea found a new password';
  await bea.page.getByLabel('New password (at least 6 characters)').fill(bea.person.password);
  await walk.seen(bea.page, 'password-reset-new');
  await bea.page.getByRole('button', { name: 'Set the new password' }).click();
  await signIn(walk, bea.page, bea.person);
}

/** Ada issues her membership credential from the page (post-redirect-get), reads and copies its claims, then offers it to a wallet. */
export async function walkCredentials(walk: Walk) {
  const page = walk.adaPage;
  const identity = walk.url('identity');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: identity });
  await page.goto(`${identity}/account/credentials`);
  await walk.seen(page, 'credentials');
  await page.locator('#issue-type').selectOption({ label: `Membership of ${walk.ada.orgName} (admin)` });
  await page.getByRole('button', { name: 'Issue' }).click();
  await page.waitForURL(/\/account\/credentials\/vc_[0-9a-z]{26}\?notice=issued$/);
  const claim = (name: string) =>
    page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
  expect(await claim('org_name').locator('td.value').textContent()).toBe(walk.ada.orgName);
  expect(await claim('role').locator('td.value').textContent()).toBe('admin');
  await walk.seen(page, 'credential-issued');

  // A reload reads the credential again: nothing is posted, nothing issued twice.
  let posted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST') posted++;
  });
  const sdjwt = await page.locator('#sdjwt').inputValue();
  await page.reload();
  expect(await page.locator('#sdjwt').inputValue()).toBe(sdjwt);
  expect(posted).toBe(0);
  await page.getByRole('button', { name: 'Copy org_name' }).click();
  await page.waitForFunction(() => document.getElementById('copy-status')?.textContent?.startsWith('Copied'));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(walk.ada.orgName);

  // The wallet QR code holds a short reference to the offer, not the offer itself.
  await page.goto(`${identity}/account/credentials`);
  await page.locator('#offer-type').selectOption({ label: `Membership of ${walk.ada.orgName} (admin)` });
  await page.getByRole('button', { name: 'Create offer' }).click();
  await page.getByRole('heading', { name: 'Scan with your wallet' }).waitFor();
  const link =
    (await page.getByRole('link', { name: 'open it in your wallet app' }).getAttribute('href')) ?? '';
  expect(link).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
  expect(link.length).toBeLessThan(160);
  expect(await page.locator('.qr svg').count()).toBe(1);
  await walk.seen(page, 'credential-wallet-offer');
}
