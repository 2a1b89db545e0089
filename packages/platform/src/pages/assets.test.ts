import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../http/app.js';
import { tempDir } from '../testing/index.js';
import { registerClientAssets, writeClientBundles } from './assets.js';
import { renderPage } from './layout.js';

/** A package with `src/client/page.ts` (importing a helper) and `src/client/page.css`. */
function samplePackage(greeting: string) {
  const root = tempDir();
  mkdirSync(join(root, 'src', 'client', 'lib'), { recursive: true });
  writeFileSync(
    join(root, 'src', 'client', 'lib', 'greet.ts'),
    `export const greet = (name: string): string => \`${greeting}, \${name}\`;`,
  );
  writeFileSync(
    join(root, 'src', 'client', 'page.ts'),
    "import { greet } from './lib/greet.js';\ndocument.title = greet('reader');",
  );
  writeFileSync(join(root, 'src', 'client', 'page.css'), 'main { color: var(--fg); }');
  writeFileSync(join(root, 'src', 'service.ts'), '');
  return root;
}

const moduleUrl = (root: string, folder: 'src' | 'dist') =>
  pathToFileURL(join(root, folder, 'service.js')).href;

async function serve(url: string) {
  const app = new OpenAPIHono<AppEnv>();
  const assets = await registerClientAssets(app, url);
  return { app, assets };
}

describe('client assets', () => {
  it('bundles each entry with its imports, under a content-hashed name cached for a year', async () => {
    const { app, assets } = await serve(moduleUrl(samplePackage('Xin chào'), 'src'));
    const script = assets.script('page');
    expect(script).toMatch(/^\/assets\/page-[\w-]{10}\.js$/);
    const response = await app.request(script);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = await response.text();
    expect(body).toContain('Xin chào');
    expect(body).not.toContain('import');
    const css = await app.request(assets.stylesheet('page'));
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await app.request(assets.stylesheet('xv'))).status).toBe(200);
  });

  it('gives changed code a new name, and answers 404 for a name it does not serve', async () => {
    const first = (await serve(moduleUrl(samplePackage('Hello'), 'src'))).assets.script('page');
    const { app, assets } = await serve(moduleUrl(samplePackage('Goodbye'), 'src'));
    expect(assets.script('page')).not.toBe(first);
    expect((await app.request(first)).status).toBe(404);
    expect(() => assets.script('missing')).toThrow(/No client script named missing/);
  });

  it('serves the bundles the build wrote when the service runs from dist/', async () => {
    const root = samplePackage('Built');
    expect(await writeClientBundles(root)).toBe(2);
    // The sources change after the build: a compiled service still serves what was built.
    writeFileSync(join(root, 'src', 'client', 'page.ts'), "document.title = 'changed';");
    const { app, assets } = await serve(moduleUrl(root, 'dist'));
    expect(await (await app.request(assets.script('page'))).text()).toContain('Built');
  });

  it('pages link the shared stylesheet and their own bundles, and carry no inline script', async () => {
    const { assets } = await serve(moduleUrl(samplePackage('Hi'), 'src'));
    const html = renderPage({
      title: 'Sample',
      product: 'XV Sample',
      home: '/',
      assets,
      scripts: ['page'],
      stylesheets: ['page'],
      children: 'Body <b>text</b>',
    });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<script type="module" src="${assets.script('page')}"></script>`);
    expect(html).toContain(`href="${assets.stylesheet('xv')}"`);
    expect(html).toContain('<title>Sample · XV Sample</title>');
    expect(html).toContain('Body &lt;b&gt;text&lt;/b&gt;');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});
