/**
 * Apps registering themselves (RFC 7591), as MCP clients do: attacks on the open registration endpoint, each
 * named for what it tries, and the expiry of apps nobody uses.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import type { IdentityDb, Tables } from '../src/db.js';
import { sweepExpiredModels } from '../src/oidc/adapter.js';
import { startIdentity } from '../src/testing/index.js';
import { type Admin, signUpAdmin } from './helpers.js';
import { Browser, oidc } from './oidc-helpers.js';

const CALLBACK = 'http://127.0.0.1:9/oauth/callback';
const KB = 'http://127.0.0.1:9';

describeEachDatabase('Sign in with XV: apps that register themselves', (target) => {
  let svc: RunningService;
  let db: IdentityDb;
  let admin: Admin;

  beforeAll(async () => {
    const database = await target.open<Tables>('identity');
    db = database.kysely;
    svc = await startIdentity(database, {
      XV_KB_URL: KB,
      XV_IDENTITY_OIDC_REGISTRATIONS_PER_HOUR: '1000',
    });
    admin = await signUpAdmin(svc.url, { orgName: 'Acme' });
  });

  const register = (body: Record<string, unknown>, service = svc) =>
    fetch(`${service.url}/oidc/default/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const mcpClient = {
    client_name: 'Desk MCP client',
    redirect_uris: [CALLBACK],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    scope: 'ai:read offline_access',
  };

  /** The redirect the provider answers an authorization request of `clientId` with. */
  async function authorize(clientId: string, params: Record<string, string>) {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = new URL(`${svc.url}/oidc/default/auth`);
    const all = {
      client_id: clientId,
      response_type: 'code',
      redirect_uri: CALLBACK,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'st',
      ...params,
    };
    for (const [key, value] of Object.entries(all)) url.searchParams.set(key, value);
    return new Browser(admin.cookie).follow(url.href);
  }

  it('an MCP client registers as a public app holding openid and ai:read only, without refresh tokens', async () => {
    const response = await register({
      ...mcpClient,
      logo_uri: 'https://evil.test/logo.png',
      jwks_uri: 'https://evil.test/jwks',
      org_id: 'org_someone_else',
    });
    expect(response.status).toBe(201);
    const app = (await response.json()) as Record<string, unknown>;
    expect(app).toMatchObject({
      client_id: expect.stringMatching(/^dcr_/),
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      scope: 'openid ai:read',
      redirect_uris: [CALLBACK],
    });
    for (const dropped of ['client_secret', 'logo_uri', 'jwks_uri', 'org_id', 'registration_access_token'])
      expect(app).not.toHaveProperty(dropped);
  });

  it('confidential registration: an app asking for a secret (or naming no auth method) is refused', async () => {
    for (const method of ['client_secret_basic', 'client_secret_post', 'private_key_jwt', undefined]) {
      const response = await register({ ...mcpClient, token_endpoint_auth_method: method });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_client_metadata' });
    }
  });

  it('redirect to a non-loopback http address, or another scheme, is refused at registration', async () => {
    for (const uri of [
      'http://evil.test/callback',
      'http://127.0.0.1.evil.test/callback',
      'http://192.168.1.10:8080/callback',
      'javascript:alert(1)',
      'myapp://callback',
      'https://user:pass@app.example/callback',
    ]) {
      const response = await register({ ...mcpClient, redirect_uris: [uri] });
      expect(response.status, uri).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    }
    expect((await register({ ...mcpClient, redirect_uris: ['https://app.example/cb'] })).status).toBe(201);
    expect((await register({ ...mcpClient, redirect_uris: ['http://localhost:33418/cb'] })).status).toBe(201);
  });

  it('scope escalation at registration: sync, e-mail or organizations are refused', async () => {
    for (const scope of ['ai:read sync', 'openid email', 'organizations', 'profile']) {
      const response = await register({ ...mcpClient, scope });
      expect(response.status, scope).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_client_metadata' });
    }
  });

  it('other grants (client credentials, device code, implicit) are refused at registration', async () => {
    for (const grant_types of [
      ['client_credentials'],
      ['urn:ietf:params:oauth:grant-type:device_code'],
      ['implicit'],
    ]) {
      const response = await register({ ...mcpClient, grant_types });
      expect(response.status).toBe(400);
    }
  });

  it('scope escalation at authorization: a registered app asking for a scope beyond its own is refused', async () => {
    const { client_id } = (await (await register(mcpClient)).json()) as { client_id: string };
    for (const scope of ['openid sync', 'openid email', 'ai:read organizations']) {
      const step = await authorize(client_id, { scope, resource: `${KB}/mcp` });
      const back = new URL(step.url);
      expect(back.origin + back.pathname).toBe(CALLBACK);
      expect(back.searchParams.get('error'), scope).toBe('invalid_scope');
    }
  });

  it('resource escalation: a registered app asking for a token for the knowledge base API is refused', async () => {
    const { client_id } = (await (await register(mcpClient)).json()) as { client_id: string };
    const step = await authorize(client_id, { scope: 'openid ai:read', resource: KB });
    expect(new URL(step.url).searchParams.get('error')).toBe('invalid_target');
  });

  it('registration flood: registrations past the hourly limit per address are refused with 429', async () => {
    const limited = await startIdentity(await target.open<Tables>('identity_registration_flood'), {
      XV_KB_URL: KB,
      XV_IDENTITY_OIDC_REGISTRATIONS_PER_HOUR: '3',
    });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await register(mcpClient, limited)).status);
      expect(statuses).toEqual([201, 201, 201, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('an app nobody uses expires: it is gone, and so are the consents given to it', async () => {
    const { client_id } = (await (await register(mcpClient)).json()) as { client_id: string };
    const row = await db
      .selectFrom('oidc_models')
      .select('expires_at')
      .where('model', '=', 'Client')
      .where('id', '=', client_id)
      .executeTakeFirstOrThrow();
    const days = (row.expires_at! - Date.now()) / (24 * 3600 * 1000);
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    await db
      .insertInto('oidc_consents')
      .values({
        user_id: admin.session.user.id,
        client_id,
        realm_id: 'default',
        grant_id: 'grant-of-expired-app',
        org_id: null,
        scopes: '["ai:read"]',
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .execute();
    await db
      .updateTable('oidc_models')
      .set({ expires_at: Date.now() - 1 })
      .where('model', '=', 'Client')
      .where('id', '=', client_id)
      .execute();
    const step = await authorize(client_id, { scope: 'openid ai:read', resource: `${KB}/mcp` });
    expect(step.response?.status).toBe(400);
    await sweepExpiredModels(db);
    const left = await db
      .selectFrom('oidc_consents')
      .select('client_id')
      .where('client_id', '=', client_id)
      .execute();
    expect(left).toEqual([]);
  });
});
