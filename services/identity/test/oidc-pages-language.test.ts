/**
 * "Sign in with XV" in the reader's language: the consent page (with each scope in words), the "continuing"
 * page, the provider's own pages (device sign-in, sign out, errors), the expired-interaction page and the
 * account page's cards of apps answer in Vietnamese to a browser that asks for it, with no English message of
 * the catalogue left, and in English when the reader chose English (`xv_lang=en`).
 */
import { LOCALE_COOKIE } from '@xv/platform/i18n';
import { shellMessages } from '@xv/platform/pages';
import {
  describeEachDatabase,
  englishLeftIn,
  hasChromium,
  launchBrowser,
  type RunningService,
} from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { en } from '../src/messages/en.js';
import { messages } from '../src/messages/index.js';
import { vi } from '../src/messages/vi.js';
import { startIdentity } from '../src/testing/index.js';
import { type Admin, FORM, signUpAdmin } from './helpers.js';
import {
  authorizationRequest,
  Browser,
  formAction,
  hiddenInputs,
  oidc,
  type RegisteredApp,
  registerApp,
  relyingParty,
} from './oidc-helpers.js';

const KB = 'http://127.0.0.1:4999';
type Language = 'vi' | 'en';

/** A browser whose reader asks for Vietnamese, and who chose English when `language` is `en`. */
class ReaderBrowser extends Browser {
  constructor(cookie: string, language: Language) {
    super(cookie);
    if (language === 'en') this.cookies.set(LOCALE_COOKIE, 'en');
  }
  override request(url: string, init: RequestInit = {}) {
    const headers = { ...(init.headers as Record<string, string>), 'accept-language': 'vi-VN,vi;q=0.9' };
    return super.request(url, { ...init, headers });
  }
}

const heading = (html: string) =>
  html
    .match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .trim();

describeEachDatabase('Sign in with XV in two languages', (target) => {
  let svc: RunningService;
  let admin: Admin;
  let app: RegisteredApp;
  let config: oidc.Configuration;
  let desktop: oidc.Configuration;
  const seen: Record<Language, Record<string, string>> = { vi: {}, en: {} };

  /** Walks every page of "Sign in with XV" as a reader of `language`; keeps each page's HTML by name. */
  async function visitAll(language: Language) {
    const pages = seen[language];
    const person = await signUpAdmin(svc.url, { orgName: `Sao Mai ${language}` });
    const browser = new ReaderBrowser(person.cookie, language);

    // The consent page, then the "continuing" page its answer hands back.
    const request = await authorizationRequest(config, {
      scope: 'openid email profile organizations offline_access',
      prompt: 'consent',
    });
    const consent = await browser.follow(request.url);
    pages.consent = consent.html!;
    const allowed = await browser.request(new URL(formAction(consent.html!, '/consent'), consent.url).href, {
      method: 'POST',
      headers: { ...FORM, origin: svc.url },
      body: 'decision=allow',
    });
    pages.continue = await allowed.text();
    const back = await browser.follow(
      /content="0;url=([^"]+)"/.exec(pages.continue)![1]!.replaceAll('&amp;', '&'),
    );
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });

    // The account page with the app allowed and registered, and the answer to a registration.
    pages.account = await (await browser.request(`${svc.url}/account`)).text();
    const registered = await browser.request(`${svc.url}/account/oidc/clients`, {
      method: 'POST',
      headers: { ...FORM, origin: svc.url },
      body: new URLSearchParams({
        name: 'Sổ tay',
        kind: 'confidential',
        redirect_uris: 'https://app.example/callback',
        scope_email: '1',
      }).toString(),
    });
    pages.registered = await registered.text();
    const refused = await browser.request(`${svc.url}/account/oidc/clients`, {
      method: 'POST',
      headers: { ...FORM, origin: svc.url },
      body: new URLSearchParams({ name: 'Sai', kind: 'public', redirect_uris: 'ftp://x' }).toString(),
    });
    expect(refused.status).toBe(400);
    pages.refusedRegistration = await refused.text();

    // Device sign-in: the code's page (empty, then a wrong code), the confirmation, consent, done.
    const entry = await browser.follow(`${svc.url}/oidc/default/device`);
    pages.deviceInput = entry.html!;
    const wrong = await browser.submit(entry.url, formAction(entry.html!), {
      ...hiddenInputs(entry.html!),
      user_code: 'BCDF-GHJK',
    });
    pages.deviceWrongCode = wrong.html!;
    const device = await oidc.initiateDeviceAuthorization(desktop, { scope: 'openid offline_access sync' });
    const autoPost = await browser.follow(device.verification_uri_complete!);
    const confirm = await browser.submit(
      autoPost.url,
      formAction(autoPost.html!),
      hiddenInputs(autoPost.html!),
    );
    pages.deviceConfirm = confirm.html!;
    const deviceConsent = await browser.submit(
      confirm.url,
      formAction(confirm.html!),
      hiddenInputs(confirm.html!),
    );
    pages.deviceConsent = deviceConsent.html!;
    const done = await browser.submit(deviceConsent.url, formAction(deviceConsent.html!, '/consent'), {
      decision: 'allow',
    });
    pages.deviceSuccess = done.html!;

    // Sign out, asked by the app, then signed out (no address to return to).
    const logout = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! });
    const question = await browser.follow(logout.href);
    pages.logout = question.html!;
    const signedOut = await browser.submit(question.url, formAction(question.html!), {
      ...hiddenInputs(question.html!),
      logout: 'yes',
    });
    pages.loggedOut = signedOut.html!;

    // The provider's error page, an interaction that is over, and a realm that does not exist.
    pages.error = (await browser.follow(`${svc.url}/oidc/default/auth?client_id=nope&response_type=code`))
      .html!;
    pages.expired = await (await browser.request(`${svc.url}/oidc/default/interaction/over`)).text();
    pages.noRealm = await (await browser.request(`${svc.url}/oidc/No_Such!/interaction/x`)).text();
  }

  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'), { XV_KB_URL: KB });
    admin = await signUpAdmin(svc.url, { orgName: 'Acme' });
    app = await registerApp(svc, admin.cookie, {
      name: 'Sổ tay Acme',
      scopes: ['openid', 'profile', 'email', 'organizations', 'offline_access'],
    });
    config = await relyingParty(svc, app);
    desktop = await oidc.discovery(new URL(`${svc.url}/oidc/default`), 'xv-desktop', {}, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    await visitAll('vi');
    await visitAll('en');
  }, 60_000);

  /** Each page's heading in each language. */
  const headings = (language: Language) => {
    const words = language === 'vi' ? vi : en;
    const t = (key: keyof typeof en, values: Record<string, string> = {}) =>
      Object.entries(values).reduce((text, [name, value]) => text.replace(`{${name}}`, value), words[key]);
    return {
      consent: t('oidc.consent.heading', { app: 'Sổ tay Acme' }),
      continue: t('oidc.continue.heading'),
      account: t('account.title'),
      registered: t('oidc.registered.heading', { app: 'Sổ tay' }),
      refusedRegistration: t('account.title'),
      deviceInput: t('oidc.device.title'),
      deviceWrongCode: t('oidc.device.title'),
      deviceConfirm: t('oidc.deviceConfirm.title'),
      deviceConsent: t('oidc.consent.heading', { app: t('oidc.consent.desktopApp') }),
      deviceSuccess: t('oidc.deviceSuccess.title'),
      logout: t('oidc.logout.title'),
      loggedOut: t('oidc.loggedOut.title'),
      error: t('oidc.error.title'),
      expired: t('oidc.expired.title'),
      noRealm: t('oidc.noRealm.title'),
    };
  };

  it('each page answers in Vietnamese to a browser that asks for it', () => {
    for (const [name, expected] of Object.entries(headings('vi'))) {
      const html = seen.vi[name]!;
      expect(html, name).toContain('<html lang="vi">');
      expect(heading(html), name).toBe(expected);
    }
  });

  it('the remembered choice of English wins over a Vietnamese Accept-Language', () => {
    for (const [name, expected] of Object.entries(headings('en'))) {
      const html = seen.en[name]!;
      expect(html, name).toContain('<html lang="en">');
      expect(heading(html), name).toBe(expected);
    }
  });

  it('a Vietnamese page shows no English message of the catalogue', () => {
    for (const [name, html] of Object.entries(seen.vi))
      expect(englishLeftIn(html, [messages, shellMessages]), name).toEqual([]);
  });

  it('what each scope shares, the cards, the device and error pages read in the page’s language', () => {
    for (const scope of ['profile', 'email', 'organizations', 'offline_access'] as const) {
      expect(seen.vi.consent).toContain(vi[`oidc.scope.${scope}`]);
      expect(seen.en.consent).toContain(en[`oidc.scope.${scope}`]);
    }
    expect(seen.vi.deviceConsent).toContain(vi['oidc.scope.sync']);
    expect(seen.en.deviceConsent).toContain(en['oidc.scope.sync']);
    expect(seen.vi.account).toContain(vi['oidc.allowed.title']);
    expect(seen.vi.account).toContain(vi['oidc.apps.title']);
    expect(seen.vi.account).toContain(vi['oidc.scope.ai:read']);
    expect(seen.en.account).toContain(en['oidc.allowed.title']);
    expect(seen.vi.refusedRegistration).toContain(vi['error.invalid_redirect_uri']);
    expect(seen.vi.deviceInput).toContain(`placeholder="${vi['oidc.device.code']}"`);
    expect(seen.en.deviceInput).toContain(`placeholder="${en['oidc.device.code']}"`);
    expect(seen.vi.deviceWrongCode).toContain(vi['oidc.device.invalid']);
    expect(seen.vi.deviceSuccess).toContain('XV desktop client đã đăng nhập.');
    expect(seen.vi.error).toContain(`${vi['oidc.error.invalid_client']} (invalid_client)`);
    // In English the provider's own description of the error stays.
    expect(seen.en.error).toContain('(invalid_client)');
    expect(seen.vi.expired).toContain(vi['oidc.expired.message']);
  });
});

describeEachDatabase('the account page script on the cards of apps, in Vietnamese', (target) => {
  it.runIf(hasChromium())(
    'taking back an allowed app asks and answers in Vietnamese',
    async () => {
      const svc = await startIdentity(await target.open('identity'));
      const admin = await signUpAdmin(svc.url, { orgName: 'Acme' });
      const app = await registerApp(svc, admin.cookie, { name: 'Sổ tay Acme' });
      const config = await relyingParty(svc, app);
      const browser = new ReaderBrowser(admin.cookie, 'vi');
      const consent = await browser.follow((await authorizationRequest(config)).url);
      await browser.submit(consent.url, formAction(consent.html!, '/consent'), { decision: 'allow' });

      const chromium = await launchBrowser();
      try {
        const base = svc.url.replace('127.0.0.1', 'localhost');
        const context = await chromium.newContext({ locale: 'vi-VN' });
        const [name, value] = admin.cookie.split(';')[0]!.split('=') as [string, string];
        await context.addCookies([{ name, value, url: base }]);
        const page = await context.newPage();
        await page.goto(`${base}/account`);
        const row = page.locator('#app-list li', { hasText: 'Sổ tay Acme' });
        await row.getByText(vi['oidc.allowed.revoke.summary']).click();
        const dialog = page.getByRole('dialog');
        await expect.poll(() => dialog.isVisible()).toBe(true);
        expect(await dialog.locator('#confirm-text').textContent()).toBe(
          vi['oidc.allowed.revoke.wording'].replace('{app}', 'Sổ tay Acme'),
        );
        await dialog.getByRole('button', { name: vi['oidc.allowed.revoke.button'] }).click();
        await expect.poll(() => page.textContent('#apps-status')).toBe(vi['oidc.allowed.revoke.done']);
        expect(await page.locator('#app-list li').count()).toBe(0);
      } finally {
        await chromium.close();
      }
    },
    60_000,
  );
});
