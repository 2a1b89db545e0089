/**
 * @module http/routes
 * Everything the relayer serves over HTTP: the anchoring API (http/anchors.ts), the EAS
 * API (http/eas.ts) and
 * the explorer pages of the local chain (http/explorer-page.tsx, `GET /tx/{txHash}`).
 */
import type { App } from '@xv/platform/http';
import { registerClientAssets } from '@xv/platform/pages';
import { type AnchorApiOptions, registerAnchorApi } from './anchors.js';
import { registerEasApi } from './eas.js';
import { registerExplorerPage } from './explorer-page.js';

export async function registerRoutes(app: App, options: AnchorApiOptions): Promise<void> {
  const assets = await registerClientAssets(app, import.meta.url);
  registerAnchorApi(app, options);
  registerEasApi(app, options);
  registerExplorerPage(app, options.relayer, assets);
}
