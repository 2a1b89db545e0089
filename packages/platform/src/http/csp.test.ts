import { Context } from 'hono';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { sampleService } from '../testing/fixtures/sample-service.js';
import {
  cspDirectives,
  cspNonceOf,
  hasChromium,
  launchBrowser,
  type RunningService,
  recordCspViolations,
  scriptTagsWithoutNonce,
  startService,
  tempDir,
} from '../testing/index.js';
import { allowInContentSecurityPolicy } from './csp.js';

let service: RunningService;

beforeAll(async () => {
  const database = await openDatabase({ service: 'sample', dataDir: tempDir() });
  service = await startService(sampleService, { database, env: { XV_SHARED_DOMAIN: 'xv.test' } });
});

const postEcho = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'a', count: 1 }),
};

describe('Content-Security-Policy', () => {
  it.each(['/reflecting-page', '/docs', '/metrics'])(
    'no inline script may run on %s without the nonce: script-src has no unsafe-inline',
    async (path) => {
      const response = await service.fetch(path);
      const scriptSrc = cspDirectives(response).get('script-src');
      expect(scriptSrc).toBeDefined();
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).not.toContain("'unsafe-eval'");
      expect(cspNonceOf(response)).toBeDefined();
      // Without a script-src, default-src would decide; it must not allow inline scripts either.
      expect(cspDirectives(response).get('default-src')).not.toContain("'unsafe-inline'");
      // Styles too: an injected style attribute or <style> could overlay a fake form.
      expect(cspDirectives(response).get('style-src')).toEqual(["'self'", `'nonce-${cspNonceOf(response)}'`]);
      await response.body?.cancel();
    },
  );

  it.each(['/healthz', '/nowhere', '/api/echo'])(
    'a JSON answer (%s) may run and load nothing, and needs no nonce',
    async (path) => {
      const response = await service.fetch(path, path === '/api/echo' ? postEcho : undefined);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      await response.body?.cancel();
    },
  );

  it('a page that takes no nonce still gets the page policy, with one', async () => {
    const response = await service.fetch('/widget-page');
    await response.body?.cancel();
    expect(cspDirectives(response).get('default-src')).toEqual(["'self'"]);
    expect(cspNonceOf(response)).toBeDefined();
  });

  it('a nonce is 128 random bits and is never used for two responses', async () => {
    const nonces = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await service.fetch('/reflecting-page');
        await response.body?.cancel();
        return cspNonceOf(response);
      }),
    );
    expect(new Set(nonces).size).toBe(20);
    for (const nonce of nonces) expect(Buffer.from(nonce ?? '', 'base64')).toHaveLength(16);
  });

  it("a page's own script tags carry the nonce of its response", async () => {
    const response = await service.fetch('/reflecting-page');
    const html = await response.text();
    expect(html).toContain('<script nonce=');
    expect(scriptTagsWithoutNonce(html, cspNonceOf(response))).toEqual([]);
  });

  it('forbids plugins and a <base> that would move relative addresses', async () => {
    const response = await service.fetch('/reflecting-page');
    await response.body?.cancel();
    expect(cspDirectives(response).get('object-src')).toEqual(["'none'"]);
    expect(cspDirectives(response).get('base-uri')).toEqual(["'none'"]);
    expect(cspDirectives(response).get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('a route that widens its own policy', () => {
  it('adds a widget host and keeps the nonce, for that response only', async () => {
    const widened = await service.fetch('/widget-page');
    await widened.body?.cancel();
    expect(cspDirectives(widened).get('script-src')).toEqual([
      "'self'",
      `'nonce-${cspNonceOf(widened)}'`,
      'https://widgets.example',
    ]);
    expect(cspDirectives(widened).get('frame-src')).toEqual(["'self'", 'https://widgets.example']);
    const other = await service.fetch('/reflecting-page');
    await other.body?.cancel();
    expect(cspDirectives(other).get('script-src')).not.toContain('https://widgets.example');
  });

  it.each([
    "'unsafe-inline'",
    "'unsafe-eval'",
    '*',
    'https:',
    'http://widgets.example',
    "https://widgets.example; script-src 'unsafe-inline'",
  ])('cannot allow %s, which would undo the policy', (source) => {
    const c = new Context(new Request('http://127.0.0.1/'));
    expect(() => allowInContentSecurityPolicy(c, 'script-src', [source])).toThrow(/not an https host/);
  });
});

describe.runIf(hasChromium())('Content-Security-Policy in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (echo: string) => {
    const page = await browser.newPage();
    const violations = await recordCspViolations(page);
    await page.goto(`${service.url}/reflecting-page?echo=${encodeURIComponent(echo)}`);
    return { page, violations };
  };

  it('a script injected into a page without the nonce does not run', async () => {
    const { page, violations } = await open('<script>window.injected = "script"</script>');
    expect(await page.evaluate(() => (window as { ownScriptRan?: boolean }).ownScriptRan)).toBe(true);
    expect(await page.evaluate(() => (window as { injected?: string }).injected)).toBeUndefined();
    await expect.poll(() => violations.map((v) => v.directive)).toContain('script-src-elem');
    await page.close();
  });

  it('an injected inline event handler does not run', async () => {
    const { page, violations } = await open(
      '<img src="/nowhere.png" onerror="window.injected = \'handler\'">',
    );
    await expect.poll(() => violations.map((v) => v.directive)).toContain('script-src-attr');
    expect(await page.evaluate(() => (window as { injected?: string }).injected)).toBeUndefined();
    await page.close();
  });

  it('an injected script that guesses a nonce does not run', async () => {
    const { page, violations } = await open(
      '<script nonce="AAAAAAAAAAAAAAAAAAAAAA==">window.injected = "guessed"</script>',
    );
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as { injected?: string }).injected)).toBeUndefined();
    await page.close();
  });

  it('an injected style attribute or stylesheet does not apply', async () => {
    const { page, violations } = await open(
      '<span id="styled" style="display:none">x</span><style>#echo { visibility: hidden }</style>',
    );
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('styled')!).display)).toBe(
      'inline',
    );
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('echo')!).visibility)).toBe(
      'visible',
    );
    await expect.poll(() => violations.map((v) => v.directive)).toContain('style-src-attr');
    await page.close();
  });

  it('a script added to the page at run time without the nonce does not run', async () => {
    const { page, violations } = await open('');
    await expect(page.addScriptTag({ content: 'window.injected = "added"' })).rejects.toThrow();
    expect(await page.evaluate(() => (window as { injected?: string }).injected)).toBeUndefined();
    // The violation event is dispatched after the refusal: wait for it.
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    await page.close();
  });
});
