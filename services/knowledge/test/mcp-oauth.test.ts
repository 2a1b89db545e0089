/**
 * An MCP client without a PAT: an app registered with XV signs a person in through OAuth (Authorization Code
 * with PKCE and the RFC 8707 resource indicator of the knowledge base's MCP endpoint), and the MCP SDK client
 * calls `search_knowledge` with the audience-bound token.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Browser, formAction, signUp, startIdentity } from '@xv/identity/testing';
import { createToken, publishDocument, signUpMakerAndReviewer, startKnowledge } from '@xv/knowledge/testing';
import { describeEachDatabase, eventually, freePort, type RunningService } from '@xv/platform/testing';
import * as oidc from 'openid-client';
import { beforeAll, expect, it } from 'vitest';

const CALLBACK = 'http://127.0.0.1:9/mcp-callback';

describeEachDatabase('MCP over OAuth: search_knowledge without a PAT', (target) => {
  let identity: RunningService;
  let kb: RunningService;

  beforeAll(async () => {
    const kbPort = await freePort();
    identity = await startIdentity(await target.open('identity'), {
      XV_KB_URL: `http://127.0.0.1:${kbPort}`,
    });
    kb = await startKnowledge(await target.open('knowledge'), identity.url, {}, { port: kbPort });
  });

  /** Registers an app (as `adminCookie`'s organization) and signs the person of `cookie` in to it. */
  async function tokenFor(cookie: string, resource: string, adminCookie = cookie) {
    const scope = 'openid ai:read';
    const registered = await fetch(`${identity.url}/api/oidc/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: adminCookie },
      body: JSON.stringify({
        name: 'Desk assistant',
        kind: 'public',
        redirect_uris: [CALLBACK],
        scopes: ['ai:read'],
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id } = (await registered.json()) as { client_id: string };
    // RFC 8414: the metadata is found with the well-known part inserted before the issuer's path.
    const metadata = await fetch(`${identity.url}/.well-known/oauth-authorization-server/oidc/default`);
    expect(((await metadata.json()) as { issuer: string }).issuer).toBe(`${identity.url}/oidc/default`);
    const config = await oidc.discovery(new URL(`${identity.url}/oidc/default`), client_id, {}, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope,
      resource,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const browser = new Browser(cookie);
    const consent = await browser.follow(url.href);
    const refused = new URL(consent.url).searchParams.get('error');
    if (refused) throw new Error(refused);
    expect(consent.html).toContain('Search your organization’s knowledge base');
    const back = await browser.submit(consent.url, formAction(consent.html!, '/consent'), {
      decision: 'allow',
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    return tokens.access_token;
  }

  it('an OAuth token for the MCP resource searches the person’s organization', async () => {
    const { maker: person, reviewer } = await signUpMakerAndReviewer(
      identity.url,
      `mcp${Date.now().toString(36)}`,
    );
    const pat = await createToken(kb.url, person.cookie, ['sync']);
    await publishDocument(
      kb.url,
      { token: pat, reviewerCookie: reviewer.cookie },
      {
        path: 'discounts.md',
        content: '# Discount policy\n\n## Approval\n\nThe sales director approves large discounts.',
      },
    );
    const token = await tokenFor(person.cookie, `${kb.url}/mcp`);
    const client = new Client({ name: 'oauth-mcp-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${kb.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({
      name: 'search_knowledge',
      arguments: { query: 'large discounts' },
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain('sales director');
    await client.close();
  });

  it('a token of a member who was removed from the organization stops working at once', async () => {
    const { maker, reviewer } = await signUpMakerAndReviewer(identity.url, `gone${Date.now().toString(36)}`);
    const token = await tokenFor(reviewer.cookie, kb.url, maker.cookie);
    const search = () =>
      kb.fetch('/api/ai/search', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: 'discounts' }),
      });
    expect((await search()).status).toBe(200);
    const removed = await identity.fetch(`/api/org/members/${reviewer.session.user.id}`, {
      method: 'DELETE',
      headers: { cookie: maker.cookie, origin: identity.url },
    });
    expect(removed.status).toBe(200);
    await eventually(async () => ((await search()).status === 401 ? true : undefined), 5000);
  });

  it('a resource that is not XV’s knowledge base is refused by the identity service (invalid_target)', async () => {
    const person = await signUp(identity.url, {
      email: `mcp-other-${Date.now()}@acme.test`,
      password: 'secret-pass-1',
      name: 'Bo',
      orgName: 'Acme',
    });
    await expect(tokenFor(person.cookie, 'https://evil.test/mcp')).rejects.toThrow(/^invalid_target$/);
  });
});
