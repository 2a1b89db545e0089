/**
 * @module http/mcp
 * The MCP server at `/mcp`, over streamable HTTP with the official SDK: the
 * 2026-07-28 revision and, statelessly, 2025-era clients. A personal access
 * token with `ai:read` is required; every tool and resource reads the approved
 * documents of that token's organization only.
 *
 * - tool `search_knowledge {query, topK}`: hybrid search, one hit per document, as text and as structured content;
 * - tool `list_documents {offset, limit}`: approved documents, a page at a time;
 * - resources `kb://documents/{docId}`: the approved Markdown of each document.
 *
 * Origin and Host are checked before the SDK sees the request (DNS rebinding):
 * a browser origin must be this service's own or a site under the shared
 * domain, and Host must name this service or a loopback address.
 *
 * MCP authorization (2025-06-18 and later) finds its way from a refusal: every
 * 401 (and the 403 of a token without `ai:read`) carries `WWW-Authenticate:
 * Bearer resource_metadata="…"`, naming the protected resource metadata
 * (RFC 9728) at `/.well-known/oauth-protected-resource/mcp`, which names the
 * default realm's OpenID Provider (`{identity}/oidc/default`, its issuer exactly)
 * as the authorization server. An MCP client registers itself there (RFC 7591),
 * signs the person in with PKCE and asks for a token for this endpoint (RFC 8707
 * `resource` = `{kb}/mcp`). `/mcp` takes only tokens bound to it (and PATs); a
 * token bound to the knowledge base's API is refused here, as one bound to `/mcp`
 * is refused by the API.
 */
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  type McpRequestContext,
  McpServer,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { AppError, platformErrors } from '@xv/platform';
import { type App, createRoute, isSharedDomainOrigin, jsonResponse, publicCors, z } from '@xv/platform/http';
import type { Context } from 'hono';
import { DEFAULT_TOP_K, MAX_TOP_K } from '../search/limits.js';
import type { Knowledge } from './context.js';

const RESOURCE_LIST_LIMIT = 500;

export function registerMcp(app: App, k: Knowledge, options: { allowedHosts: string[] }) {
  const handler = createMcpHandler((context) => buildServer(k, orgOf(context)), {
    onerror: (error) => k.logger.debug({ err: error }, 'mcp request rejected'),
  });
  const ownOrigin = new URL(k.url).origin;
  const allowedHosts = [new URL(k.url).hostname, 'localhost', '127.0.0.1', '[::1]', ...options.allowedHosts];

  const serve = async (c: Context) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== ownOrigin && !isSharedDomainOrigin(origin, k.sharedDomain))
      throw platformErrors.forbidden_origin('This origin may not call the MCP server.');
    const badHost = hostHeaderValidationResponse(c.req.raw, allowedHosts);
    if (badHost) return badHost;
    const caller = await k.auth.token(c, 'ai:read', 'mcp').catch((error: unknown) => {
      throw withBearerChallenge(error, c, metadataUrl);
    });
    return handler.fetch(c.req.raw, {
      authInfo: {
        token: 'xkb',
        clientId: caller.userId,
        scopes: [...caller.scopes],
        extra: { orgId: caller.orgId },
      },
    });
  };
  const metadataUrl = `${k.url}${METADATA_PATH}/mcp`;
  const metadata = protectedResourceMetadata(k);
  app.use(`${METADATA_PATH}/*`, publicCors());
  app.use(METADATA_PATH, publicCors());
  // The path-suffixed form is the resource's own (RFC 9728 §3.1); the bare one serves
  // clients that look at the root of the server first, as 2025-06-18 clients do.
  for (const path of [METADATA_PATH, `${METADATA_PATH}/mcp`])
    app.openapi({ ...metadataRoute, path }, (c) => c.json(metadata, 200));
  app.post('/mcp', serve);
  app.get('/mcp', serve);
  app.delete('/mcp', serve);
}

const METADATA_PATH = '/.well-known/oauth-protected-resource';
const MCP_SCOPE = 'ai:read';
/** The realm whose OpenID Provider MCP clients sign in with (issuer `{identity}/oidc/default`). */
const DEFAULT_REALM = 'default';

const protectedResourceMetadataBody = z
  .object({
    resource: z.url(),
    authorization_servers: z.array(z.url()),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.enum(['header'])),
    resource_name: z.string(),
    resource_documentation: z.url(),
  })
  .openapi('ProtectedResourceMetadata');

const metadataRoute = createRoute({
  method: 'get',
  path: METADATA_PATH,
  summary: 'OAuth protected resource metadata of the MCP server (RFC 9728)',
  tags: ['MCP'],
  security: [],
  responses: {
    200: jsonResponse(
      'Where to get a token for `/mcp`, and which scope it needs',
      protectedResourceMetadataBody,
      {
        resource: 'https://kb.example.com/mcp',
        authorization_servers: ['https://id.example.com/oidc/default'],
        scopes_supported: [MCP_SCOPE],
        bearer_methods_supported: ['header'],
        resource_name: 'XV knowledge base (MCP)',
        resource_documentation: 'https://kb.example.com/docs',
      },
    ),
  },
});

function protectedResourceMetadata(k: Knowledge): z.infer<typeof protectedResourceMetadataBody> {
  return {
    resource: `${k.url}/mcp`,
    authorization_servers: [`${k.identityUrl}/oidc/${DEFAULT_REALM}`],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'XV knowledge base (MCP)',
    resource_documentation: `${k.url}/docs`,
  };
}

/**
 * A refusal of `/mcp` with the RFC 6750 challenge that points to the metadata: no
 * error attribute when no credential came (§3.1), `invalid_token` for a bad one,
 * `insufficient_scope` for a token without `ai:read`.
 */
function withBearerChallenge(error: unknown, c: Context, metadataUrl: string): unknown {
  if (!(error instanceof AppError) || (error.status !== 401 && error.status !== 403)) return error;
  const attributes = [`resource_metadata="${metadataUrl}"`, `scope="${MCP_SCOPE}"`];
  if (error.status === 403) attributes.push('error="insufficient_scope"');
  else if (c.req.header('authorization') !== undefined) attributes.push('error="invalid_token"');
  return new AppError(error.status, error.code, error.message, error.extra, {
    ...error.headers,
    'WWW-Authenticate': `Bearer ${attributes.join(', ')}`,
  });
}

function orgOf(context: McpRequestContext): string {
  const orgId = context.authInfo?.extra?.orgId;
  if (typeof orgId !== 'string') throw platformErrors.unauthenticated('No organization for this request.');
  return orgId;
}

function buildServer(k: Knowledge, orgId: string): McpServer {
  const server = new McpServer(
    { name: 'xv-knowledge', version: '0.1.0' },
    { instructions: 'Search and read the approved knowledge base documents of your organization.' },
  );

  server.registerTool(
    'search_knowledge',
    {
      title: 'Search the knowledge base',
      description:
        'Hybrid semantic and keyword search over approved documents. Returns the best documents, each once, with its best passage, document id, title and heading path.',
      inputSchema: z.object({
        query: z.string().min(1).max(2000).describe('What to look for, in natural language'),
        topK: z
          .number()
          .int()
          .min(1)
          .max(MAX_TOP_K)
          .optional()
          .describe(`How many documents (default ${DEFAULT_TOP_K}, at most ${MAX_TOP_K})`),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, topK }) => {
      const hits = await k.index.search(orgId, query, topK ?? DEFAULT_TOP_K);
      const text = hits.length
        ? hits
            .map(
              (h, i) =>
                `${i + 1}. ${h.title}${h.headingPath ? ` — ${h.headingPath}` : ''} (${h.docId}, score ${h.score})\n${h.text}`,
            )
            .join('\n\n')
        : 'No approved document matches.';
      return { content: [{ type: 'text', text }], structuredContent: { hits } };
    },
  );

  server.registerTool(
    'list_documents',
    {
      title: 'List approved documents',
      description: 'Approved documents of the knowledge base, ordered by path, one page at a time.',
      inputSchema: z.object({
        offset: z.number().int().min(0).optional().describe('Where the page starts (default 0)'),
        limit: z.number().int().min(1).max(100).optional().describe('Page size (default 50)'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ offset = 0, limit = 50 }) => {
      const page = await k.documents.listLive(orgId, { offset, limit: limit + 1 });
      const documents = page.slice(0, limit).map((d) => ({ ...d, uri: documentUri(d.docId) }));
      const nextOffset = page.length > limit ? offset + limit : null;
      const text = documents.length
        ? documents.map((d) => `- ${d.title} (${d.docId}, ${d.path})`).join('\n')
        : 'No approved documents.';
      return { content: [{ type: 'text', text }], structuredContent: { documents, nextOffset } };
    },
  );

  server.registerResource(
    'document',
    new ResourceTemplate('kb://documents/{docId}', {
      list: async () => ({
        resources: (await k.documents.listLive(orgId, { offset: 0, limit: RESOURCE_LIST_LIMIT })).map(
          (d) => ({
            uri: documentUri(d.docId),
            name: d.title,
            description: d.path,
            mimeType: 'text/markdown',
          }),
        ),
      }),
    }),
    { title: 'Approved document', mimeType: 'text/markdown' },
    async (uri, variables) => {
      const docId = String(variables.docId ?? '');
      const doc = await k.documents.readLive(orgId, docId);
      if (!doc) throw new Error(`No approved document ${docId}.`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: doc.content }] };
    },
  );
  return server;
}

export function documentUri(docId: string): string {
  return `kb://documents/${docId}`;
}
