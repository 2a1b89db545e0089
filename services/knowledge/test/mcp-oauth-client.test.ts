/**
 * The MCP SDK client signs a person in through OAuth on its own, as the MCP authorization spec (2025-06-18)
 * describes: 401 with the resource metadata, RFC 9728 metadata naming the default realm's issuer, RFC 8414
 * discovery, Dynamic Client Registration (RFC 7591), PKCE, the token exchange with the resource indicator
 * (RFC 8707), then `search_knowledge`. No PAT is given to the client. The person's part (following the
 * authorization redirects with an XV session, allowing on the consent page) is played by a cookie-keeping fetch.
 */
import {
  Client,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { Browser, formAction, startIdentity } from '@xv/identity/testing';
import { createToken, publishDocument, signUpMakerAndReviewer, startKnowledge } from '@xv/knowledge/testing';
import { describeEachDatabase, freePort, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';

type Stored = Parameters<OAuthClientProvider['saveTokens']>[0];
type ClientInfo = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];
type Discovery = Parameters<NonNullable<OAuthClientProvider['saveDiscoveryState']>>[0];

/**
 * An MCP client's OAuth state, in memory. Sending the person to the authorization URL is played by `person`:
 * it answers the callback URL the browser was sent back to.
 */
class InMemoryOAuthClient implements OAuthClientProvider {
  client?: ClientInfo;
  stored?: Stored;
  discovery?: Discovery;
  verifier = '';
  callback?: URL;
  consentPage = '';

  constructor(
    readonly redirectUrl: string,
    private readonly person: (url: URL) => Promise<{ callback: URL; consentPage: string }>,
  ) {}

  get clientMetadata() {
    return {
      client_name: 'Desk MCP client',
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: ClientInfo) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: Stored) {
    this.stored = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: Discovery) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  async redirectToAuthorization(url: URL) {
    ({ callback: this.callback, consentPage: this.consentPage } = await this.person(url));
  }
}

/** The person with the XV session of `cookie`: follows the authorization request, allows the app. */
function personWith(cookie: string, redirectUrl: string) {
  return async (url: URL) => {
    const browser = new Browser(cookie);
    const consent = await browser.follow(url.href, redirectUrl);
    if (!consent.html) throw new Error(`no consent page: sent to ${consent.url}`);
    const back = await browser.submit(consent.url, formAction(consent.html, '/consent'), {
      decision: 'allow',
    });
    return { callback: new URL(back.url), consentPage: consent.html };
  };
}

describeEachDatabase('MCP SDK client signs in through OAuth and searches', (target) => {
  let identity: RunningService;
  let kb: RunningService;

  beforeAll(async () => {
    const kbPort = await freePort();
    identity = await startIdentity(await target.open('identity'), {
      XV_KB_URL: `http://127.0.0.1:${kbPort}`,
    });
    kb = await startKnowledge(await target.open('knowledge'), identity.url, {}, { port: kbPort });
  });

  /** Runs the whole sign-in with the SDK: the provider holds the client and its tokens afterwards. */
  async function signInWithSdk(cookie: string) {
    // Nothing listens there: the browser stops when it is sent back (as to a loopback listener).
    const redirectUrl = 'http://127.0.0.1:9/oauth/callback';
    const oauth = new InMemoryOAuthClient(redirectUrl, personWith(cookie, redirectUrl));
    const mcpUrl = new URL(`${kb.url}/mcp`);
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth });
    await expect(new Client({ name: 'desk', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(oauth.callback?.searchParams.get('code')).toBeTruthy();
    await first.finishAuth(oauth.callback!.searchParams);
    const client = new Client({ name: 'desk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth }));
    return { client, oauth };
  }

  it('discovers, registers, signs the person in with PKCE and a resource indicator, and searches', async () => {
    const { maker: person, reviewer } = await signUpMakerAndReviewer(
      identity.url,
      `sdk${Date.now().toString(36)}`,
    );
    await publishDocument(
      kb.url,
      { token: await createToken(kb.url, person.cookie, ['sync']), reviewerCookie: reviewer.cookie },
      {
        path: 'travel.md',
        content: '# Travel policy\n\nTrains are booked in second class for trips under four hours.',
      },
    );

    // The metadata names the issuer exactly as the provider's own discovery does.
    const resource = (await (await kb.fetch('/.well-known/oauth-protected-resource/mcp')).json()) as {
      authorization_servers: string[];
    };
    const discovery = (await (
      await fetch(`${identity.url}/oidc/default/.well-known/openid-configuration`)
    ).json()) as { issuer: string; registration_endpoint: string };
    expect(resource.authorization_servers).toEqual([discovery.issuer]);

    const { client, oauth } = await signInWithSdk(person.cookie);
    // The SDK registered itself, and the consent page said so.
    expect(oauth.client?.client_id).toMatch(/^dcr_/);
    expect(oauth.consentPage).toContain('registered itself: no organization vouches for it');
    expect(oauth.consentPage).toContain('Search your organization’s knowledge base');
    // The token is bound to the MCP endpoint and holds ai:read only (no refresh token for such an app).
    const access = JSON.parse(
      Buffer.from(oauth.stored!.access_token.split('.')[1]!, 'base64url').toString(),
    ) as { aud: string; scope: string; iss: string };
    expect(access).toMatchObject({ aud: `${kb.url}/mcp`, scope: 'ai:read', iss: discovery.issuer });
    expect(oauth.stored?.refresh_token).toBeUndefined();

    const result = await client.callTool({ name: 'search_knowledge', arguments: { query: 'train trips' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain('second class');
    await client.close();

    // The person sees the app among the apps they allowed, and can take it back.
    const allowed = (await (
      await fetch(`${identity.url}/api/oidc/consents`, { headers: { cookie: person.cookie } })
    ).json()) as { apps: { client_id: string; name: string; scopes: string[] }[] };
    expect(allowed.apps).toContainEqual(
      expect.objectContaining({
        client_id: oauth.client!.client_id,
        name: 'Desk MCP client',
        self_registered: true,
        scopes: expect.arrayContaining(['ai:read']),
      }),
    );
  });

  it('token confusion: a token bound to /mcp is refused by the knowledge base API and by UserInfo', async () => {
    const { maker: person } = await signUpMakerAndReviewer(identity.url, `cross${Date.now().toString(36)}`);
    const { client, oauth } = await signInWithSdk(person.cookie);
    await client.close();
    const bearer = { authorization: `Bearer ${oauth.stored!.access_token}` };
    const search = await kb.fetch('/api/ai/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer },
      body: JSON.stringify({ query: 'travel' }),
    });
    expect(search.status).toBe(401);
    const userinfo = await fetch(`${identity.url}/oidc/default/me`, { headers: bearer });
    expect(userinfo.status).toBe(401);
  });

  it('token confusion: a token bound to the knowledge base API is refused by /mcp', async () => {
    const { maker: person } = await signUpMakerAndReviewer(identity.url, `api${Date.now().toString(36)}`);
    const app = await fetch(`${identity.url}/api/oidc/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: person.cookie, origin: identity.url },
      body: JSON.stringify({
        name: 'Reporting',
        kind: 'public',
        redirect_uris: ['http://127.0.0.1:9/cb'],
        scopes: ['ai:read'],
      }),
    });
    expect(app.status).toBe(201);
    const { client_id } = (await app.json()) as { client_id: string };
    const token = await codeFlowToken(person.cookie, client_id, 'http://127.0.0.1:9/cb', kb.url);
    const apiSearch = await kb.fetch('/api/ai/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: 'travel' }),
    });
    expect(apiSearch.status).toBe(200);
    const mcp = await kb.fetch('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  /** A hand-made code flow with PKCE for a public app: the access token for `resource`. */
  async function codeFlowToken(cookie: string, clientId: string, redirectUri: string, resource: string) {
    const { createHash, randomBytes } = await import('node:crypto');
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${identity.url}/oidc/default/auth`);
    for (const [key, value] of Object.entries({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid ai:read',
      resource,
      state: 'st',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(key, value);
    const back = await personWith(cookie, redirectUri)(url);
    const code = back.callback.searchParams.get('code');
    if (!code) throw new Error(`no code: ${back.callback}`);
    const response = await fetch(`${identity.url}/oidc/default/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: clientId,
        resource,
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }
});
