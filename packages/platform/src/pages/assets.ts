/**
 * @module pages/assets
 * A service's browser code: every top-level `src/client/*.ts` (and `*.css`) is an
 * entry, bundled by esbuild into one ES module (or stylesheet) and served at
 * `/assets/<name>-<hash>.<ext>` with a year-long immutable cache: a changed file
 * gets a new name, so no browser keeps a stale script. Shared browser helpers sit
 * in subfolders of `src/client/` and are bundled into the entries that use them.
 *
 * `npm run build` writes the bundles and a `manifest.json` to `dist/client/`
 * (`bundleClientFolder`); a service running from `dist/` serves those. A service
 * running from its sources (tests, `npm run dev`) bundles them in memory when it
 * starts. Pages link them (`script`, `stylesheet`) and never inline code, so the
 * Content-Security-Policy needs no `'unsafe-inline'` for scripts.
 */
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from '../http/app.js';
import { renderDocsWith } from '../http/docs-page.js';
import type { ClientAssets } from './client-assets.js';
import { renderDocsInShell } from './docs.js';
import { FAVICON_SVG } from './shell.js';
import { PLATFORM_STYLESHEET } from './tokens.js';

export interface ClientAsset {
  /** The served file name, `<name>-<hash>.<ext>`. */
  file: string;
  contentType: string;
  body: string;
}

export type { ClientAssets } from './client-assets.js';

const ENTRY = /^[a-z0-9][a-z0-9-]*\.(ts|css)$/;
const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** The entries of a client folder: `name.ts` → script `name`, `name.css` → stylesheet `name`. */
function entriesOf(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => ENTRY.test(file) && !file.endsWith('.test.ts'))
    .map((file) => join(folder, file));
}

function contentHash(body: string): string {
  return hash('sha256', body, 'base64url').slice(0, 10);
}

function assetOf(name: string, ext: 'js' | 'css', body: string): ClientAsset {
  return { file: `${name}-${contentHash(body)}.${ext}`, contentType: CONTENT_TYPES[ext]!, body };
}

/** Bundles every entry of `folder` (browser ES2022 modules, minified). */
export async function bundleClientFolder(folder: string): Promise<Map<string, ClientAsset>> {
  const entries = entriesOf(folder);
  const assets = new Map<string, ClientAsset>();
  if (entries.length === 0) return assets;
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: entries,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // Workspace packages (`@xv/platform/i18n`) are bundled from their TypeScript sources.
    conditions: ['xv-source'],
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    outdir: '/out',
    logLevel: 'silent',
  });
  for (const output of result.outputFiles) {
    const base = output.path.slice(output.path.lastIndexOf('/') + 1);
    const ext = base.endsWith('.css') ? 'css' : 'js';
    const name = base.slice(0, -(ext.length + 1));
    assets.set(`${ext}:${name}`, assetOf(name, ext, output.text));
  }
  return assets;
}

/** Writes the bundles of `<package>/src/client` to `<package>/dist/client` with their manifest. */
export async function writeClientBundles(packageRoot: string): Promise<number> {
  const assets = await bundleClientFolder(join(packageRoot, 'src', 'client'));
  const out = join(packageRoot, 'dist', 'client');
  rmSync(out, { recursive: true, force: true });
  if (assets.size === 0) return 0;
  mkdirSync(out, { recursive: true });
  const manifest: Record<string, { file: string; contentType: string }> = {};
  for (const [key, asset] of assets) {
    writeFileSync(join(out, asset.file), asset.body);
    manifest[key] = { file: asset.file, contentType: asset.contentType };
  }
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return assets.size;
}

function readBuiltBundles(folder: string): Map<string, ClientAsset> {
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; contentType: string }
  >;
  return new Map(
    Object.entries(manifest).map(([key, entry]) => [
      key,
      { ...entry, body: readFileSync(join(folder, entry.file), 'utf8') },
    ]),
  );
}

// Bundling from sources happens once per folder and process (tests build many services).
const bundled = new Map<string, Promise<Map<string, ClientAsset>>>();

/**
 * The bundles of the service whose wiring module is `moduleUrl` (pass
 * `import.meta.url`): built ones next to a compiled module, else bundled from
 * `src/client` now.
 */
export async function loadClientAssets(moduleUrl: string): Promise<Map<string, ClientAsset>> {
  const file = fileURLToPath(moduleUrl);
  const marker = [`${sep}src${sep}`, `${sep}dist${sep}`].find((part) => file.includes(part));
  if (!marker) throw new Error(`loadClientAssets: ${file} is neither under src/ nor dist/`);
  const root = file.slice(0, file.lastIndexOf(marker));
  const built = join(root, 'dist', 'client');
  if (marker.includes('dist') && existsSync(join(built, 'manifest.json'))) return readBuiltBundles(built);
  const folder = join(root, 'src', 'client');
  let assets = bundled.get(folder);
  if (!assets) {
    assets = bundleClientFolder(folder);
    bundled.set(folder, assets);
  }
  return assets;
}

/**
 * Serves the platform's stylesheet and shell script (`packages/platform/src/client`),
 * the service's bundles under `/assets/` and the favicon at `/favicon.svg`, and
 * answers which URL each asset has.
 */
export async function registerClientAssets(app: App, moduleUrl: string): Promise<ClientAssets> {
  const assets = new Map([
    ...(await loadClientAssets(import.meta.url)),
    ...(await loadClientAssets(moduleUrl)),
  ]);
  assets.set('css:xv', assetOf('xv', 'css', PLATFORM_STYLESHEET));
  app.get('/favicon.svg', (c) =>
    c.body(FAVICON_SVG, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' }),
  );
  const byFile = new Map([...assets.values()].map((asset) => [asset.file, asset]));
  app.get('/assets/:file', (c) => {
    const asset = byFile.get(c.req.param('file'));
    if (!asset) return c.notFound();
    return c.body(asset.body, 200, {
      'content-type': asset.contentType,
      'cache-control': 'public, max-age=31536000, immutable',
    });
  });
  const url = (ext: string, name: string) => {
    const asset = assets.get(`${ext}:${name}`);
    if (!asset) throw new Error(`No client ${ext === 'js' ? 'script' : 'stylesheet'} named ${name}`);
    return `/assets/${asset.file}`;
  };
  const clientAssets: ClientAssets = {
    script: (name) => url('js', name),
    stylesheet: (name) => url('css', name),
  };
  // The API reference the platform serves at /docs joins the service's pages in the shell.
  renderDocsWith(app, (c, doc) => renderDocsInShell(c, clientAssets, doc));
  return clientAssets;
}
