/**
 * @module http/register
 * Every HTTP surface of the knowledge service on one app: the JSON API (tokens,
 * documents and review, search), the MCP server and the browser pages.
 */
import type { App } from '@xv/platform/http';
import type { Knowledge } from './context.js';
import { registerDocumentRoutes } from './documents.js';
import { registerMcp } from './mcp.js';
import { registerPages } from './pages/routes.js';
import { registerSearchRoutes } from './search.js';
import { registerTokenRoutes } from './tokens.js';

export async function registerHttp(app: App, k: Knowledge, options: { mcpAllowedHosts: string[] }) {
  registerTokenRoutes(app, k);
  registerDocumentRoutes(app, k);
  registerSearchRoutes(app, k);
  registerMcp(app, k, { allowedHosts: options.mcpAllowedHosts });
  await registerPages(app, k);
}
