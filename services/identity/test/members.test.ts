import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { createUser } from '../src/testing/index.js';
import { issue, verify } from './credentials-helpers.js';
import { type Admin, email, signUpAdmin, startWithAdmin } from './helpers.js';

describeEachDatabase('changing and ending memberships', (target) => {
  let svc: RunningService;
  let admin: Admin;
  let orgId: string;

  beforeAll(async () => {
    ({ svc, admin, orgId } = await startWithAdmin(target, {
      email: email('owner'),
      name: 'Ann',
      orgName: 'Members Inc',
    }));
  });

  const send = (method: 'PATCH' | 'DELETE', userId: string, cookie: string, body?: unknown) =>
    svc.fetch(`/api/org/members/${encodeURIComponent(userId)}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const membershipIn = async (cookie: string) => {
    const session = await (await svc.fetch('/api/session', { headers: { cookie } })).json();
    return session.memberships.find((m: { org_id: string }) => m.org_id === orgId);
  };
  const newMember = (role: 'admin' | 'reviewer' | 'member') =>
    createUser(svc.url, admin.cookie, { email: email(role), password: 'secret1', name: 'Mo', role });

  it('an admin changes a role: the session shows the new permissions at once, and the old membership credential is revoked', async () => {
    const member = await newMember('member');
    const userId = member.session.user.id;
    const { body: credential } = await issue(svc, member.cookie, {
      type: 'MembershipCredential',
      org_id: orgId,
    });
    expect((await verify(svc, { token: credential.sdjwt })).body.valid).toBe(true);

    const response = await send('PATCH', userId, admin.cookie, { role: 'reviewer' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, org_id: orgId, user_id: userId, role: 'reviewer' });
    expect(await membershipIn(member.cookie)).toMatchObject({
      role: 'reviewer',
      permissions: ['review:decide'],
    });
    // It said "member": no longer true.
    expect((await verify(svc, { token: credential.sdjwt })).body).toMatchObject({
      valid: false,
      reason: 'revoked',
    });
  });

  it('removing a member ends their access to the organization and revokes their membership credential', async () => {
    const member = await newMember('reviewer');
    const userId = member.session.user.id;
    const { body: credential } = await issue(svc, member.cookie, {
      type: 'MembershipCredential',
      org_id: orgId,
    });
    const { body: identityCredential } = await issue(svc, member.cookie, { type: 'IdentityCredential' });

    const response = await send('DELETE', userId, admin.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, org_id: orgId, user_id: userId, role: null });
    expect(await membershipIn(member.cookie)).toBeUndefined();
    expect((await verify(svc, { token: credential.sdjwt })).body).toMatchObject({
      valid: false,
      reason: 'revoked',
    });
    // What is about the person, not the membership, stays valid.
    expect((await verify(svc, { token: identityCredential.sdjwt })).body.valid).toBe(true);
    const members = await (await svc.fetch('/api/org/members', { headers: { cookie: admin.cookie } })).json();
    expect(members.members.map((m: { user_id: string }) => m.user_id)).not.toContain(userId);
    // Gone is gone.
    expect((await send('DELETE', userId, admin.cookie)).status).toBe(404);
  });

  it('the last administrator can be neither demoted nor removed; with a second one, either can leave', async () => {
    const adminId = admin.session.user.id;
    for (const response of [
      await send('PATCH', adminId, admin.cookie, { role: 'member' }),
      await send('DELETE', adminId, admin.cookie),
    ]) {
      expect(response.status).toBe(409);
      expect((await response.json()).error).toBe('last_admin');
    }
    const second = await newMember('admin');
    expect((await send('PATCH', second.session.user.id, admin.cookie, { role: 'member' })).status).toBe(200);
    expect((await send('PATCH', second.session.user.id, admin.cookie, { role: 'admin' })).status).toBe(200);
    expect((await send('DELETE', second.session.user.id, second.cookie)).status).toBe(200);
    expect(await membershipIn(admin.cookie)).toMatchObject({ role: 'admin' });
  });

  it('two administrators demoting each other at once leave exactly one administrator', async () => {
    const founder = await signUpAdmin(svc.url, { email: email('duo'), name: 'Di', orgName: 'Duo' });
    const duoOrg = founder.orgId;
    const partner = await createUser(svc.url, founder.cookie, {
      email: email('partner'),
      password: 'secret1',
      name: 'Pat',
      role: 'admin',
    });
    const partnerCookie = `${partner.cookie.split(';')[0]}; xv_org=${duoOrg}`;
    const [a, b] = await Promise.all([
      send('PATCH', partner.session.user.id, founder.cookie, { role: 'member' }),
      send('PATCH', founder.session.user.id, partnerCookie, { role: 'member' }),
    ]);
    // One wins; the other is refused, as no longer an admin (403) or as the last one (409), depending on timing.
    const [won, refused] = [a.status, b.status].sort();
    expect(won).toBe(200);
    expect([403, 409]).toContain(refused);
    const members = await (
      await svc.fetch('/api/org/members', { headers: { cookie: founder.cookie } })
    ).json();
    expect(members.members.filter((m: { role: string }) => m.role === 'admin')).toHaveLength(1);
  });

  it('refuses non-admins, strangers, members of other organizations and bad roles', async () => {
    const member = await newMember('member');
    const other = await signUpAdmin(svc.url, { email: email('other'), name: 'Oz', orgName: 'Other' });
    const target = member.session.user.id;
    const byMember = await send('DELETE', admin.session.user.id, member.cookie);
    expect(byMember.status).toBe(403);
    expect((await byMember.json()).error).toBe('admin_required');
    expect((await svc.fetch(`/api/org/members/${target}`, { method: 'DELETE' })).status).toBe(401);
    // The other organization's admin acts in their own organization, where this user is no member.
    expect((await send('DELETE', target, other.cookie)).status).toBe(404);
    expect((await send('PATCH', target, admin.cookie, { role: 'owner' })).status).toBe(400);
    expect((await send('PATCH', target, admin.cookie, {})).status).toBe(400);
    expect((await send('PATCH', 'usr_nobody', admin.cookie, { role: 'member' })).status).toBe(404);
    expect(await membershipIn(member.cookie)).toMatchObject({ role: 'member' });
  });
});
