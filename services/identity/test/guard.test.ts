import { newId } from '@xv/platform';
import { createAuthGuard } from '@xv/platform/http';
import { defineService } from '@xv/platform/service';
import { describeEachDatabase, type RunningService, startService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { createRealm } from '../src/accounts/repository.js';
import type { IdentityDb } from '../src/db.js';
import { createServiceClient as createClientRow } from '../src/service-clients/repository.js';
import { createServiceClient, createUser, startIdentity } from '../src/testing/index.js';
import { type Admin, email, signUpAdmin } from './helpers.js';

/** Another XV service that accepts "session, or service token with scope did:issue for that organization". */
const issuingService = defineService()({
  name: 'trust',
  description: 'A service guarded by the platform guard, for tests.',
  migrations: {},
  setup(app, ctx) {
    const guard = createAuthGuard({ sso: ctx.sso, identityUrl: ctx.settings.services.identity.url });
    app.post('/api/issue', async (c) => {
      const { org_id } = (await c.req.json()) as { org_id?: string };
      const actor = await guard.authorize(c, { scope: 'did:issue', orgId: org_id });
      return c.json(
        actor.kind === 'user'
          ? { kind: actor.kind, user: actor.session.user.id, org: actor.orgId }
          : { kind: actor.kind, client: actor.client.id, org: actor.orgId },
      );
    });
    app.post('/api/review', guard.require({ scope: 'review:decide', permission: 'review:decide' }), (c) =>
      c.json({ org: c.var.actor.orgId }),
    );
  },
});

describeEachDatabase('the platform guard against the real identity service', (target) => {
  let identity: RunningService;
  let service: RunningService;
  let admin: Admin;
  let orgId: string;
  let otherOrgId: string;

  beforeAll(async () => {
    identity = await startIdentity(await target.open('identity'));
    service = await startService(issuingService, {
      database: await target.open('trust'),
      env: { XV_IDENTITY_URL: identity.url },
    });
    admin = await signUpAdmin(identity.url, { email: email('g'), name: 'G', orgName: 'Guarded' });
    orgId = admin.orgId;
    otherOrgId = (await signUpAdmin(identity.url, { email: email('o'), name: 'O', orgName: 'Other' })).orgId;
  });

  const issue = (body: unknown, headers: Record<string, string>) =>
    service.fetch('/api/issue', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('lets a member of the organization in with the SSO session', async () => {
    const response = await issue({ org_id: orgId }, { cookie: admin.cookie });
    expect(await response.json()).toEqual({ kind: 'user', user: admin.session.user.id, org: orgId });
  });

  it('refuses a session of someone outside the organization (403) and no credentials at all (401)', async () => {
    expect((await issue({ org_id: otherOrgId }, { cookie: admin.cookie })).status).toBe(403);
    expect((await issue({ org_id: orgId }, {})).status).toBe(401);
  });

  it('lets a service token with the scope act for its organization', async () => {
    const { id, token } = await createServiceClient(identity.url, admin.cookie, {
      name: 'ok',
      scopes: ['did:issue'],
      org_id: orgId,
    });
    expect(await (await issue({ org_id: orgId }, bearer(token))).json()).toEqual({
      kind: 'service',
      client: id,
      org: orgId,
    });
  });

  it('refuses a service token without the scope', async () => {
    const { token } = await createServiceClient(identity.url, admin.cookie, {
      name: 'no',
      scopes: ['attest:issue'],
      org_id: orgId,
    });
    const response = await issue({ org_id: orgId }, bearer(token));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'insufficient_scope' });
  });

  it('refuses a service token for another organization', async () => {
    const { token } = await createServiceClient(identity.url, admin.cookie, {
      name: 'x',
      scopes: ['did:issue'],
      org_id: orgId,
    });
    const response = await issue({ org_id: otherOrgId }, bearer(token));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'wrong_organization' });
  });

  it('refuses forged and revoked tokens with 401', async () => {
    const { id, token } = await createServiceClient(identity.url, admin.cookie, {
      name: 'r',
      scopes: ['did:issue'],
      org_id: orgId,
    });
    await identity.fetch(`/api/service-clients/${id}`, {
      method: 'DELETE',
      headers: { cookie: admin.cookie },
    });
    for (const t of ['xvc_forged', token]) {
      const response = await issue({ org_id: orgId }, bearer(t));
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid_token' });
    }
  });

  it('a realm-wide token covers the organizations of its realm, and no other realm', async () => {
    const db = identity.context.database.kysely as IdentityDb;
    const realm = `r${Date.now()}`;
    await createRealm(db, realm, 'Elsewhere');
    const foreignOrg = newId('org');
    await db
      .insertInto('organizations')
      .values({
        id: foreignOrg,
        realm_id: realm,
        name: 'Far',
        slug: 'far',
        verified: 0,
        public_assistant: 0,
        require_2fa: 0,
        verified_at: null,
        created_at: Date.now(),
      })
      .execute();
    const { token } = await createClientRow(db, {
      realmId: 'default',
      orgId: null,
      name: 'ops',
      scopes: ['did:issue'],
      createdBy: null,
    });
    expect((await issue({ org_id: orgId }, bearer(token))).status).toBe(200);
    expect((await issue({ org_id: otherOrgId }, bearer(token))).status).toBe(200);
    expect((await issue({ org_id: foreignOrg }, bearer(token))).status).toBe(403);
  });

  it('the middleware form checks the permission of the active membership', async () => {
    const reviewer = await createUser(identity.url, admin.cookie, {
      email: email('rv'),
      password: 'secret1',
      name: 'R',
      role: 'reviewer',
    });
    const member = await createUser(identity.url, admin.cookie, {
      email: email('mb'),
      password: 'secret1',
      name: 'M',
      role: 'member',
    });
    const review = (cookie: string) => service.fetch('/api/review', { method: 'POST', headers: { cookie } });
    expect(await (await review(reviewer.cookie)).json()).toEqual({ org: orgId });
    expect((await review(member.cookie)).status).toBe(403);
  });
});
