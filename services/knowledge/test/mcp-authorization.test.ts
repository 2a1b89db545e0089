/**
 * MCP authorization discovery (MCP 2025-06-18 and later, RFC 9728), as the official
 * SDK client performs it: an unauthenticated client is refused with a bearer
 * challenge, follows `resource_metadata` to the protected resource metadata and
 * finds the identity service named as the authorization server; with a personal
 * access token it then connects as before.
 */
import {
  type AuthProvider,
  Client,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  type OAuthProtectedResourceMetadata,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { describeEachDatabase } from '@xv/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorld, type World } from './helpers.js';

describeEachDatabase('MCP authorization discovery', (target) => {
  let world: World;
  const clients: Client[] = [];
  beforeAll(async () => {
    world = await startWorld(target);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  const mcpUrl = () => new URL(`${world.kb.url}/mcp`);
  const newClient = () => {
    const client = new Client({ name: 'discovery-test', version: '1.0.0' });
    clients.push(client);
    return client;
  };

  it('refuses a client without a token with a challenge the SDK follows to identity', async () => {
    let challenge: ReturnType<typeof extractWWWAuthenticateParams> | undefined;
    let resourceMetadata: OAuthProtectedResourceMetadata | undefined;
    let token: string | undefined;
    // What a client does on 401: read the challenge, discover the authorization
    // server through the metadata, then come back with a credential from it.
    const authProvider: AuthProvider = {
      token: async () => token,
      onUnauthorized: async ({ response, serverUrl, fetchFn }) => {
        challenge = extractWWWAuthenticateParams(response);
        resourceMetadata = await discoverOAuthProtectedResourceMetadata(
          serverUrl,
          { resourceMetadataUrl: challenge.resourceMetadataUrl },
          fetchFn,
        );
        token = world.tokens.read;
      },
    };
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider }));

    expect(challenge?.resourceMetadataUrl?.href).toBe(
      `${world.kb.url}/.well-known/oauth-protected-resource/mcp`,
    );
    expect(challenge?.scope).toBe('ai:read');
    // No credential was sent: RFC 6750 §3.1 gives no error code then.
    expect(challenge?.error).toBeUndefined();
    expect(resourceMetadata).toMatchObject({
      resource: mcpUrl().href,
      authorization_servers: [`${world.identity.url}/oidc/default`],
      scopes_supported: ['ai:read'],
      bearer_methods_supported: ['header'],
    });
    // The personal access token the client came back with works as it always did.
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('search_knowledge');
  });

  it('challenges a forged token with invalid_token and a token without ai:read with insufficient_scope', async () => {
    const post = (token: string) =>
      world.kb.fetch('/mcp', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{}',
      });
    const forged = await post('xkb_forged');
    expect(forged.status).toBe(401);
    expect(extractWWWAuthenticateParams(forged)).toMatchObject({
      error: 'invalid_token',
      resourceMetadataUrl: new URL(`${world.kb.url}/.well-known/oauth-protected-resource/mcp`),
    });
    const syncOnly = await post(world.tokens.sync);
    expect(syncOnly.status).toBe(403);
    expect(extractWWWAuthenticateParams(syncOnly)).toMatchObject({
      error: 'insufficient_scope',
      scope: 'ai:read',
    });
  });

  it('publishes the metadata at the root form too, to any origin', async () => {
    const response = await world.kb.fetch('/.well-known/oauth-protected-resource', {
      headers: { origin: 'https://client.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toMatchObject({
      resource: mcpUrl().href,
      authorization_servers: [`${world.identity.url}/oidc/default`],
    });
  });
});
