/**
 * @module e2e/support/journey-pages
 * What a person does on XV's pages, one function per task, through the labels and
 * buttons they see (never by calling the API behind a page): register, turn on
 * 2FA, create an access token, add a member, switch organization, approve a
 * document, ask the agent, make a wallet offer. Screenshots are the test's own.
 */
import { clearOfTimeStepEnd } from '@xv/platform/testing';
import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from 'playwright-core';

export interface Person {
  name: string;
  email: string;
  password: string;
  orgName: string;
}

/** `/register`: fills the trial form; resolves on `/account`. */
export async function register(
  page: Page,
  identityUrl: string,
  person: Person,
  beforeSubmit?: () => Promise<unknown>,
) {
  await page.goto(`${identityUrl}/register`);
  await page.getByLabel('Your name').fill(person.name);
  await page.getByLabel('E-mail address').fill(person.email);
  await page.getByLabel('Password (at least 6 characters)').fill(person.password);
  await page.getByLabel('Organization').fill(person.orgName);
  await beforeSubmit?.();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${identityUrl}/account`);
}

/** The code of an authenticator app holding `secret` at `timestamp` (RFC 6238: SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp,
  });
}

/**
 * `/account` → "Set up 2FA": re-enters the password (a first second factor needs it), reads the key shown
 * under the QR code into an authenticator (otpauth), types its code and turns 2FA on. `onQrCode` runs while
 * the QR code is on screen. The code typed is the previous time step's (inside the drift window), so the
 * current one is left for the sign-in that follows: enrolment does not raise the session.
 */
export async function enableTwoFactor(
  page: Page,
  identityUrl: string,
  password: string,
  onQrCode?: () => Promise<unknown>,
) {
  await page.goto(`${identityUrl}/account`);
  await page.getByLabel('Your password').fill(password);
  await page.getByRole('button', { name: 'Set up 2FA' }).click();
  await page.locator('#totp-enrol').waitFor({ state: 'visible' });
  const secret = (await page.locator('#totp-secret').textContent())?.trim() ?? '';
  const qrCodes = await page.locator('#totp-qr svg').count();
  await onQrCode?.();
  await clearOfTimeStepEnd();
  await page.getByLabel('Code from the app').fill(totpCode(secret, Date.now() - 30_000));
  await page.getByRole('button', { name: 'Turn on' }).click();
  // Either the recovery codes appear, or the page says what went wrong.
  await page.locator('#recovery:visible, #totp-status.error').first().waitFor();
  const problem = page.locator('#totp-status.error');
  if (await problem.count()) throw new Error(`2FA was not turned on: ${await problem.textContent()}`);
  const recoveryCodes = await page.locator('#recovery-codes li').allTextContents();
  return { secret, qrCodes, recoveryCodes };
}

/** `/step-up` to AAL2: signs in again with the password and the current code, back on `/account`. */
export async function stepUpWithCode(
  page: Page,
  identityUrl: string,
  person: { email: string; password: string },
  secret: string,
) {
  await page.goto(`${identityUrl}/step-up?aal=AAL2&redirect=%2Faccount`);
  await page.waitForURL(/\/login\?/);
  await page.getByLabel('E-mail address').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${identityUrl}/login/2fa`);
  await page.getByLabel('Code').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${identityUrl}/account`);
}

/** The text of the `<dd>` after the `<dt>` named `term` (definition lists of the account and verify pages). */
export function definition(page: Page, term: string): Locator {
  return page
    .locator('dt')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

/** `{kb}/tokens`: a personal access token with exactly `scopes`; the secret shown once. */
export async function createAccessToken(page: Page, kbUrl: string, name: string, scopes: string[]) {
  await page.goto(`${kbUrl}/tokens`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  for (const scope of ['sync', 'ai:read'])
    await page.getByRole('checkbox', { name: scope, exact: true }).setChecked(scopes.includes(scope));
  await page.getByRole('button', { name: 'Create token' }).click();
  return (await page.locator('#new-token').textContent())?.trim() ?? '';
}

/** `/account` (an admin): "Add member" with an existing user's e-mail and a role; the role the list shows. */
export async function addMember(page: Page, identityUrl: string, email: string, role: string) {
  await page.goto(`${identityUrl}/account`);
  await page.getByLabel('E-mail of an existing user').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  await page.getByRole('button', { name: 'Add member' }).click();
  const listed = page.locator('li').filter({ hasText: email });
  await listed.waitFor();
  return listed.getByRole('combobox').inputValue();
}

/** `/account`: makes `orgName` the active organization (if it is not already); its row's role. */
export async function makeActive(page: Page, identityUrl: string, orgName: string) {
  await page.goto(`${identityUrl}/account`);
  const row = page.getByRole('row').filter({ hasText: orgName });
  const button = row.getByRole('button', { name: 'Make active' });
  if (await button.count()) {
    await button.click();
    await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
  }
  return (await row.getByRole('cell').nth(1).textContent())?.trim() ?? '';
}

/** `{kb}/review`: the documents waiting, as `{title, href}` in queue order. */
export async function reviewQueue(page: Page, kbUrl: string) {
  await page.goto(`${kbUrl}/review`);
  const links = page.locator('table a[href^="/review/"]');
  const found: { title: string; docId: string }[] = [];
  for (const link of await links.all()) {
    const href = (await link.getAttribute('href')) ?? '';
    found.push({ title: (await link.textContent()) ?? '', docId: href.replace('/review/', '') });
  }
  return found;
}

/** `{kb}/review/<docId>`: approves with a note; resolves with the state the page shows afterwards (its code). */
export async function approve(
  page: Page,
  kbUrl: string,
  docId: string,
  note: string,
  beforeDeciding?: () => Promise<unknown>,
) {
  await page.goto(`${kbUrl}/review/${docId}`);
  await beforeDeciding?.();
  await page.getByLabel('Note for the audit trail').fill(note);
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await page.waitForURL(`${kbUrl}/review/${docId}`);
  return (await page.locator('.state').getAttribute('data-state')) ?? '';
}

/** The agent's chat page: sends `question` and waits for the whole streamed answer and its tool badges. */
export async function askAgent(page: Page, agentUrl: string, question: string) {
  await page.goto(agentUrl);
  await page.getByLabel('Your message').fill(question);
  await page.getByRole('button', { name: 'Send' }).click();
  const reply = page.locator('.message.assistant').last();
  await reply.waitFor();
  await page.waitForFunction(() => !document.querySelector('.message.assistant[aria-busy]'), undefined, {
    timeout: 60_000,
  });
  return {
    text: (await reply.locator('.body').textContent()) ?? '',
    tools: await reply
      .locator('.tool')
      .evaluateAll((badges) => badges.map((b) => (b as HTMLElement).dataset.tool)),
    failed: await reply.evaluate((item) => item.classList.contains('error')),
  };
}

/** `/account/credentials` → "Add to a wallet" with a PIN: the offer link and the PIN the page shows. */
export async function makeWalletOffer(page: Page, identityUrl: string, credentialLabel: string) {
  await page.goto(`${identityUrl}/account/credentials`);
  await page.locator('#offer-type').selectOption({ label: credentialLabel });
  await page.getByLabel('Protect it with a PIN').setChecked(true);
  await page.getByRole('button', { name: 'Create offer' }).click();
  await page.getByRole('heading', { name: 'Scan with your wallet' }).waitFor();
  return {
    offerUri:
      (await page.getByRole('link', { name: 'open it in your wallet app' }).getAttribute('href')) ?? '',
    pin: (await page.locator('#offer-pin').textContent())?.trim() ?? '',
    qrCodes: await page.locator('.qr svg').count(),
  };
}
