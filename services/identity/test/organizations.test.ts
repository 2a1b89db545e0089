import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { addMember, createUser, signUp } from '../src/testing/index.js';
import { type Admin, email, postJson, signUpAdmin, startWithAdmin } from './helpers.js';

describeEachDatabase('organizations', (target) => {
  let svc: RunningService;
  let admin: Admin;
  let orgId: string;
  beforeAll(async () => {
    ({ svc, admin, orgId } = await startWithAdmin(target, {
      email: email('admin'),
      name: 'Admin',
      orgName: 'Acme Corp',
    }));
  });

  it('resolves an organization publicly by id and by slug, with its DIDs, for any origin', async () => {
    const host = new URL(svc.url);
    const didHost = `${host.hostname}%3A${host.port}`;
    const byId = await svc.fetch(`/api/org/resolve?org_id=${orgId}`, {
      headers: { origin: 'https://anyone.example' },
    });
    expect(byId.status).toBe(200);
    expect(byId.headers.get('access-control-allow-origin')).toBe('*');
    const record = await byId.json();
    expect(record).toEqual({
      org_id: orgId,
      name: 'Acme Corp',
      slug: expect.stringMatching(/^acme-corp/),
      did: `did:web:${didHost}`,
      org_did: `did:web:${didHost}:o:${orgId}`,
      verified: false,
      verified_at: null,
      realm: 'default',
      public_assistant: false,
    });
    const bySlug = await (await svc.fetch(`/api/org/resolve?slug=${record.slug}`)).json();
    expect(bySlug.org_id).toBe(orgId);
  });

  it('answers 400 without org_id or slug (or with both) and 404 for an unknown one', async () => {
    expect((await svc.fetch('/api/org/resolve')).status).toBe(400);
    expect((await svc.fetch(`/api/org/resolve?org_id=${orgId}&slug=x`)).status).toBe(400);
    const missing = await svc.fetch('/api/org/resolve?org_id=org_00000000000000000000000000');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ ok: false, error: 'org_not_found' });
    // An empty value is a value, never a lookup by the other, absent one (it was a 500).
    expect((await svc.fetch('/api/org/resolve?org_id=')).status).toBe(404);
    expect((await svc.fetch('/api/org/resolve?slug=')).status).toBe(404);
    // NUL cannot be stored (or looked up) in PostgreSQL text: a 400 there, a plain miss on SQLite.
    expect([400, 404]).toContain((await svc.fetch('/api/org/resolve?slug=%00')).status);
  });

  it('gives two organizations of the same name distinct slugs', async () => {
    const other = await signUpAdmin(svc.url, { name: 'B', orgName: 'Acme Corp' });
    const a = await (await svc.fetch(`/api/org/resolve?org_id=${orgId}`)).json();
    const b = await (await svc.fetch(`/api/org/resolve?org_id=${other.orgId}`)).json();
    expect(a.slug).not.toBe(b.slug);
  });

  it('an admin adds an existing user with a role; the session lists the membership and its permissions', async () => {
    const address = email('rev');
    const person = await signUpAdmin(svc.url, { email: address, name: 'Rae', orgName: 'Own' });
    const added = await addMember(svc.url, admin.cookie, address, 'reviewer');
    expect(added).toMatchObject({ org_id: orgId, role: 'reviewer', user_id: person.session.user.id });
    const session = await (await svc.fetch('/api/session', { headers: { cookie: person.cookie } })).json();
    expect(session.memberships).toContainEqual({
      org_id: orgId,
      org_name: 'Acme Corp',
      role: 'reviewer',
      permissions: ['review:decide'],
    });
  });

  it('adding refuses unknown users (404), existing members (409), bad roles (400) and non-admins (403)', async () => {
    const unknown = await postJson(
      svc,
      '/api/org/members',
      { email: email('ghost'), role: 'member' },
      admin.cookie,
    );
    expect(unknown.status).toBe(404);
    const member = await createUser(svc.url, admin.cookie, {
      email: email('m'),
      password: 'secret1',
      name: 'M',
      role: 'member',
    });
    const again = await postJson(
      svc,
      '/api/org/members',
      { email: member.session.user.email, role: 'member' },
      admin.cookie,
    );
    expect(again.status).toBe(409);
    const badRole = await postJson(
      svc,
      '/api/org/members',
      { email: member.session.user.email, role: 'owner' },
      admin.cookie,
    );
    expect(badRole.status).toBe(400);
    const notAdmin = await postJson(
      svc,
      '/api/org/members',
      { email: email(), role: 'admin' },
      member.cookie,
    );
    expect(notAdmin.status).toBe(403);
    expect(await notAdmin.json()).toMatchObject({ error: 'admin_required' });
    const anonymous = await postJson(svc, '/api/org/members', { email: email(), role: 'admin' });
    expect(anonymous.status).toBe(401);
  });

  it('only an administrator turns the public assistant on, and only for their active organization', async () => {
    const support = await createUser(svc.url, admin.cookie, {
      email: email('support'),
      password: 'secret1',
      name: 'S',
      role: 'support',
    });
    expect(support.session.memberships.find((m) => m.org_id === orgId)?.permissions).toEqual([
      'tickets:read',
    ]);
    const refused = await postJson(svc, '/api/org/settings', { public_assistant: true }, support.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ ok: false, error: 'admin_required' });
    expect((await postJson(svc, '/api/org/settings', { public_assistant: true })).status).toBe(401);
    expect((await postJson(svc, '/api/org/settings', { public_assistant: 'yes' }, admin.cookie)).status).toBe(
      400,
    );
    const resolve = async () =>
      (await (await svc.fetch(`/api/org/resolve?org_id=${orgId}`)).json()).public_assistant;
    expect(await resolve()).toBe(false);
    const on = await postJson(svc, '/api/org/settings', { public_assistant: true }, admin.cookie);
    expect(on.status).toBe(200);
    expect(await on.json()).toEqual({ ok: true, org_id: orgId, public_assistant: true, require_2fa: false });
    expect(await resolve()).toBe(true);
    await postJson(svc, '/api/org/settings', { public_assistant: false }, admin.cookie);
    expect(await resolve()).toBe(false);
  });

  it('switching sets xv_org for a member, and refuses an organization the user is not in', async () => {
    const member = await createUser(svc.url, admin.cookie, {
      email: email('sw'),
      password: 'secret1',
      name: 'S',
      role: 'member',
    });
    const sessionCookie = member.cookie.split(';')[0]!;
    const ok = await postJson(svc, '/api/org/switch', { org_id: orgId }, sessionCookie);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, org_id: orgId });
    expect(ok.headers.getSetCookie().find((l) => l.startsWith(`xv_org=${orgId}`))).toMatch(/HttpOnly/);
    const foreign = await signUpAdmin(svc.url, { name: 'F', orgName: 'Foreign' });
    const refused = await postJson(svc, '/api/org/switch', { org_id: foreign.orgId }, sessionCookie);
    expect(refused.status).toBe(403);
  });

  it('the active organization decides where members are added', async () => {
    const second = await createUser(svc.url, admin.cookie, {
      email: email('a2'),
      password: 'secret1',
      name: 'A2',
      role: 'admin',
    });
    // The cookie carries xv_org = Acme: the new admin adds people to Acme, not to their own organization.
    const third = await signUp(svc.url, { email: email('t'), password: 'secret1', name: 'T', orgName: 'T' });
    const added = await addMember(svc.url, second.cookie, third.session.user.email, 'member');
    expect(added.org_id).toBe(orgId);
  });
});
