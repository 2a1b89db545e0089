/**
 * @module pages/docs
 * `/docs` inside the product's shell: the service's API reference (http/docs-page.ts)
 * in the same header, theme and language switch as every other page. The reference
 * itself stays in English, as the API does.
 */
import type { Context } from 'hono';
import { raw } from 'hono/html';
import { DOCS_STYLES, docsContent, type OpenApiDocument } from '../http/docs-page.js';
import type { ClientAssets } from './client-assets.js';
import { Page } from './layout.js';
import { renderWithShell, shellOf } from './shell.js';

export function renderDocsInShell(c: Context, assets: ClientAssets, doc: OpenApiDocument): string {
  const shell = shellOf(c);
  return renderWithShell(
    shell,
    <Page
      title="API reference"
      product={doc.info.title}
      home="/"
      assets={assets}
      width="wide"
      head={<style nonce={shell.nonce}>{raw(DOCS_STYLES)}</style>}
    >
      <div lang="en">{raw(String(docsContent(doc)))}</div>
    </Page>,
  );
}
