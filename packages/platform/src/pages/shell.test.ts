import { OpenAPIHono } from '@hono/zod-openapi';
import { jsx } from 'hono/jsx';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../http/app.js';
import { docsPageOf } from '../http/docs-page.js';
import { serviceAddresses } from '../settings/platform.js';
import { registerClientAssets } from './assets.js';
import { Page, renderPage } from './layout.js';
import { renderWithShell } from './shell.js';

const links = {
  identity: 'https://id.example.com',
  knowledge: 'https://kb.example.com',
  agent: 'https://agent.example.com',
  trust: 'https://trust.example.com',
};

async function served() {
  const app = new OpenAPIHono<AppEnv>();
  const assets = await registerClientAssets(app, import.meta.url);
  return { app, assets };
}

describe('the page shell', () => {
  it('links the product sections to the other services and marks the current one', async () => {
    const { assets } = await served();
    const html = renderPage({
      title: 'Library',
      product: 'XV',
      home: '/',
      assets,
      section: 'knowledge',
      links,
      nonce: 'n0nce',
    });
    expect(html).toContain('href="https://id.example.com/account"');
    expect(html).toMatch(/<a href="https:\/\/kb\.example\.com\/" aria-current="page">Knowledge<\/a>/);
    expect(html).toContain('href="https://agent.example.com/"');
    expect(html).toContain('href="https://trust.example.com/"');
    expect(html).not.toContain('Review queue');
    expect(html).toContain('href="https://id.example.com/login">Sign in</a>');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>');
    expect(html).toMatch(/<script type="module" src="\/assets\/shell-[\w-]+\.js" nonce="n0nce">/);
  });

  it('loads no shell script on a page rendered without a nonce, and takes both from withShell', async () => {
    const { assets } = await served();
    const bare = renderPage({ title: 'Plain', product: 'XV', home: '/', assets, links });
    expect(bare).not.toContain('<script');
    const viewer = { name: 'Ada', organizations: [{ id: 'org_a', name: 'Acme' }], activeOrgId: 'org_a' };
    const framed = renderWithShell(
      { viewer, nonce: 'abc' },
      jsx(Page, { title: 'Framed', product: 'XV', home: '/', assets, links }),
    );
    expect(framed).toMatch(/^<!doctype html>/);
    expect(framed).toContain('nonce="abc"');
    expect(framed).toContain('>Ada</a><span class="org">Acme</span>');
  });

  it('shows the signed-in person, their organization switch, and the admin links', async () => {
    const { assets } = await served();
    const html = renderPage({
      title: 'Chat',
      product: 'XV',
      home: '/',
      assets,
      links,
      viewer: {
        name: 'Ada',
        organizations: [
          { id: 'org_a', name: 'Acme' },
          { id: 'org_b', name: 'Beta' },
        ],
        activeOrgId: 'org_b',
        admin: true,
      },
    });
    expect(html).toContain('>Ada</a>');
    expect(html).not.toContain('Sign in');
    expect(html).toContain('data-switch-url="https://id.example.com/api/org/switch"');
    expect(html).toMatch(/<option value="org_b" selected="">Beta<\/option>/);
    expect(html).toContain('href="https://kb.example.com/review">Review queue</a>');
  });

  it('speaks the page’s language: the header, the skip link and the document language', async () => {
    const { assets } = await served();
    const page = jsx(Page, {
      title: 'Thư viện',
      product: 'XV',
      home: '/',
      assets,
      links,
      section: 'knowledge',
    });
    const vietnamese = renderWithShell({ locale: 'vi', path: '/library?q=x' }, page);
    expect(vietnamese).toContain('<html lang="vi">');
    expect(vietnamese).toMatch(/aria-current="page">Tri thức<\/a>/);
    expect(vietnamese).toContain('>Đăng nhập</a>');
    expect(vietnamese).toContain('>Chuyển đến nội dung</a>');
    // Both languages are offered, each named in its own language, returning to the same page.
    expect(vietnamese).toContain(
      'href="/lang?to=en&amp;back=%2Flibrary%3Fq%3Dx" lang="en" hreflang="en">English</a>',
    );
    expect(vietnamese).toMatch(/lang="vi" hreflang="vi" aria-current="true">Tiếng Việt<\/a>/);
    const english = renderWithShell({ path: '/' }, page);
    expect(english).toContain('<html lang="en">');
    // A remembered theme is rendered from the first byte.
    expect(renderWithShell({ theme: 'dark' }, page)).toContain('<html lang="en" data-theme="dark">');
    expect(english).toContain('>Sign in</a>');
  });

  it('shows a service’s API reference inside the shell once its page assets are served', async () => {
    const doc = { info: { title: 'XV Sample', version: '1.0.0' }, paths: {} };
    const serving = (app: OpenAPIHono<AppEnv>) => {
      app.use(async (c, next) => {
        c.set('cspNonce', 'n0nce');
        await next();
      });
      app.get('/docs', (c) => c.html(docsPageOf(app, c, doc, 'n0nce')));
      return app;
    };
    // Without page assets: a page of its own.
    const bare = serving(new OpenAPIHono<AppEnv>());
    const alone = await (await bare.request('/docs')).text();
    expect(alone).not.toContain('<header class="site">');
    expect(alone).toContain('<div class="api-docs">');
    const withPages = new OpenAPIHono<AppEnv>();
    await registerClientAssets(withPages, import.meta.url);
    serving(withPages);
    const framed = await (await withPages.request('/docs', { headers: { 'accept-language': 'vi' } })).text();
    expect(framed).toContain('<html lang="vi">');
    expect(framed).toContain('<header class="site">');
    expect(framed).toContain('aria-label="Các mục"');
    // The reference itself stays English, and says so.
    expect(framed).toContain('<div lang="en"><div class="api-docs">');
    expect(framed).toMatch(/<style nonce="n0nce">/);
  });

  it('serves the favicon and the shell script from every service', async () => {
    const { app, assets } = await served();
    const icon = await app.request('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toContain('<svg');
    const script = await app.request(assets.script('shell'));
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('/theme');
  });

  it('takes the service addresses from the platform settings', () => {
    const services = serviceAddresses({ XV_KB_URL: 'https://kb.example.com/', XV_AGENT_PORT: '5004' });
    expect(services.knowledge.url).toBe('https://kb.example.com');
    expect(services.agent.url).toBe('http://localhost:5004');
  });
});
