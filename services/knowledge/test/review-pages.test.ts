/**
 * The reviewer and token pages, in a real browser (Debian Chromium through
 * playwright-core): a hostile document never runs script in the reviewer's
 * browser, the reviewer approves through the form, and the pages send a
 * visitor without a session to the identity login.
 */
import { describeEachDatabase, launchBrowser } from '@xv/platform/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, startWorld, type World, withCookie, withToken } from './helpers.js';

const HOSTILE = `# Quarterly numbers

<script>window.__xss = 'script'</script>

<img src="x" onerror="window.__xss = 'img'">

<svg onload="window.__xss = 'svg'"><circle r="5"/></svg>

<iframe srcdoc="<script>parent.__xss = 'iframe'</script>"></iframe>

<a href="javascript:window.__xss='raw-link'" id="raw">raw link</a>

[a markdown link](javascript:window.__xss='md-link')

<details open ontoggle="window.__xss = 'details'">x</details>

Plain **bold** text stays.
`;

async function openAs(browser: Browser, world: World, who: World['reviewer'], path: string): Promise<Page> {
  const context = await browser.newContext();
  context.setDefaultTimeout(5000);
  const cookies = who.cookie.split('; ').map((pair) => {
    const [name, ...rest] = pair.split('=');
    return { name: name!, value: rest.join('='), url: world.kb.url };
  });
  await context.addCookies(cookies);
  const page = await context.newPage();
  await page.goto(`${world.kb.url}${path}`);
  return page;
}

describeEachDatabase('reviewer pages', (target) => {
  let world: World;
  let browser: Browser;
  let hostileDocId: string;

  beforeAll(async () => {
    world = await startWorld(target);
    browser = await launchBrowser();
    const pushed = await withToken(world.kb, world.tokens.sync, '/api/sync/push', {
      path: 'finance/q3.md',
      content: HOSTILE,
      hash: sha256(HOSTILE),
    });
    hostileDocId = pushed.body.docId;
    await withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId: hostileDocId });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('never runs script from a document in the reviewer’s browser', async () => {
    const page = await openAs(browser, world, world.reviewer, `/review/${hostileDocId}`);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    expect((await page.locator('#rendered strong').innerText()).trim()).toBe('bold');
    // Try the links a curious reviewer might click.
    for (const link of await page.locator('#rendered a').all())
      await link.click({ noWaitAfter: true }).catch(() => {});
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(
      await page.locator('#rendered script, #rendered img, #rendered iframe, #rendered svg').count(),
    ).toBe(0);
    expect(await page.locator('#rendered').innerText()).toContain('<script>');
    await page.context().close();
  });

  it('lists the queue and lets a reviewer approve with a note through the form', async () => {
    const page = await openAs(browser, world, world.reviewer, '/review');
    await page.getByRole('link', { name: 'Quarterly numbers' }).click();
    expect(await page.locator('#diff ins').innerText()).toContain('Quarterly numbers');
    await page.fill('#note', 'Checked against the ledger.');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    expect((await page.locator('.state').innerText()).trim()).toBe('Approved');
    expect(await page.locator('.state').getAttribute('data-state')).toBe('approved');
    expect(await page.locator('table').last().innerText()).toContain('Checked against the ledger.');
    await page.context().close();
  });

  it('shows the maker no decision form on their own revision', async () => {
    const content = '# Mine\n\nMy own change.';
    const { body } = await withToken(world.kb, world.tokens.sync, '/api/sync/push', {
      path: 'mine.md',
      content,
      hash: sha256(content),
    });
    await withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId: body.docId });
    const page = await openAs(browser, world, world.maker, `/review/${body.docId}`);
    expect(await page.locator('.notice').first().innerText()).toContain('another reviewer must decide');
    expect(await page.locator('form button[value=approve]').count()).toBe(0);
    await page.context().close();
  });

  it('creates a token on the tokens page and shows it once', async () => {
    const page = await openAs(browser, world, world.member, '/tokens');
    await page.fill('input[name=name]', 'desktop');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForLoadState();
    const token = (await page.locator('#new-token').innerText()).trim();
    expect(token).toMatch(/^xkb_/);
    await page.goto(`${world.kb.url}/tokens`);
    expect(await page.content()).not.toContain(token);
    expect(await page.locator('table').innerText()).toContain('desktop');
    await page.context().close();
  });

  describe('without a browser', () => {
    it('sends a visitor without a session to the identity login and back', async () => {
      const response = await world.kb.fetch('/review', { redirect: 'manual' });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.origin).toBe(world.identity.url);
      expect(location.pathname).toBe('/login');
      expect(location.searchParams.get('redirect')).toBe(`${world.kb.url}/review`);
    });

    it('refuses the queue to a member without review:decide', async () => {
      const response = await world.kb.fetch('/review', { headers: { cookie: world.member.cookie } });
      expect(response.status).toBe(403);
    });

    it('refuses a decision form posted from another site', async () => {
      const response = await world.kb.fetch(`/review/${hostileDocId}/decide`, {
        method: 'POST',
        headers: {
          cookie: world.reviewer.cookie,
          origin: 'https://evil.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'decision=reject',
      });
      expect(response.status).toBe(403);
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${hostileDocId}`);
      expect(detail.body.state).not.toBe('rejected');
    });
  });
});
