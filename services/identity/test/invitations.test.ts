import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { createUser, signUp } from '../src/testing/index.js';
import {
  type Admin,
  email,
  location,
  mailedPath,
  PASSWORD,
  postForm,
  postJson,
  setCookie,
  signUpAdmin,
  startWithAdmin,
} from './helpers.js';

describeEachDatabase('invitations', (target) => {
  let svc: RunningService;
  let admin: Admin;
  let orgId: string;

  beforeAll(async () => {
    ({ svc, admin, orgId } = await startWithAdmin(target, {
      email: email('inviter'),
      name: 'Ines',
      orgName: 'Invite Co',
    }));
  });

  const invite = async (to: string, role = 'member', cookie = admin.cookie) =>
    postJson(svc, '/api/org/invitations', { email: to, role }, cookie);
  const tokenOf = (path: string) => path.slice('/invitations/'.length);
  const accept = (token: string, cookie: string) =>
    postJson(svc, '/api/invitations/accept', { token }, cookie);
  const roleIn = async (cookie: string, org = orgId) => {
    const session = await (await svc.fetch('/api/session', { headers: { cookie } })).json();
    return session.memberships.find((m: { org_id: string }) => m.org_id === org)?.role ?? null;
  };
  const newPerson = (address: string) =>
    signUp(svc.url, { email: address, password: PASSWORD, name: 'Nia', orgName: 'Own' });

  it('a non-admin cannot invite, list, resend or revoke', async () => {
    const member = await createUser(svc.url, admin.cookie, {
      email: email('m'),
      password: PASSWORD,
      name: 'M',
      role: 'member',
    });
    expect((await invite(email('x'), 'member', member.cookie)).status).toBe(403);
    expect((await svc.fetch('/api/org/invitations', { headers: { cookie: member.cookie } })).status).toBe(
      403,
    );
    const sent = await (await invite(email('y'))).json();
    const resend = await postJson(
      svc,
      `/api/org/invitations/${sent.invitation.id}/resend`,
      {},
      member.cookie,
    );
    expect(resend.status).toBe(403);
    const revoke = await svc.fetch(`/api/org/invitations/${sent.invitation.id}`, {
      method: 'DELETE',
      headers: { cookie: member.cookie },
    });
    expect(revoke.status).toBe(403);
    expect(
      (await postForm(svc, '/account/invitations', { email: email('z'), role: 'admin' }, member.cookie))
        .status,
    ).toBe(403);
    expect((await invite(email('anon'), 'member', '')).status).toBe(401);
  });

  it('a guessed or malformed token joins nothing and the page says the link is not valid', async () => {
    const person = await newPerson(email('guess'));
    for (const token of ['xvi_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'nope', 'x'.repeat(500)]) {
      // A token longer than any real one is refused as bad input (400); the others are not found.
      expect((await accept(token, person.cookie)).status).toBe(token.length > 200 ? 400 : 404);
      expect((await svc.fetch(`/invitations/${token}`)).status).toBe(404);
      expect((await postForm(svc, `/invitations/${token}`, {}, person.cookie)).status).toBe(404);
    }
    expect(await roleIn(person.cookie)).toBeNull();
  });

  it('the invitee gets the link by e-mail, signs up through it, joins with the role, and the link is then used up', async () => {
    const address = email('new');
    const sent = await invite(address, 'reviewer');
    expect(sent.status).toBe(201);
    const path = await mailedPath(svc, address, '/invitations/');
    expect(tokenOf(path)).toMatch(/^xvi_[A-Za-z0-9_-]{43}$/);
    const listed = await (
      await svc.fetch('/api/org/invitations', { headers: { cookie: admin.cookie } })
    ).json();
    expect(listed.invitations.map((i: { email: string }) => i.email)).toContain(address);

    const page = await (await svc.fetch(path)).text();
    expect(page).toContain('Join Invite Co');
    expect(page).toContain(`/register?redirect=${encodeURIComponent(path)}`);
    // Registration from the link comes back to it.
    const registered = await postForm(svc, '/api/auth/register', {
      email: address,
      password: PASSWORD,
      name: 'Nia',
      orgName: 'Own',
      redirect: path,
    });
    expect(registered.status).toBe(303);
    expect(location(registered)).toBe(path);
    const cookie = setCookie(registered, 'xv_session')!;
    const joined = await postForm(svc, path, {}, cookie);
    expect(joined.status).toBe(303);
    expect(location(joined)).toBe('/account?notice=joined');
    expect(setCookie(joined, 'xv_org')).toBe(`xv_org=${orgId}`);
    expect(await roleIn(cookie)).toBe('reviewer');

    // Used: neither the page nor the API accepts it again, and it is no longer pending.
    expect((await svc.fetch(path)).status).toBe(404);
    expect((await accept(tokenOf(path), cookie)).status).toBe(404);
    const after = await (
      await svc.fetch('/api/org/invitations', { headers: { cookie: admin.cookie } })
    ).json();
    expect(after.invitations.map((i: { email: string }) => i.email)).not.toContain(address);
  });

  it('only the account with the invited address can accept; the link stays good for that person', async () => {
    const address = email('right');
    await invite(address);
    const token = tokenOf(await mailedPath(svc, address, '/invitations/'));
    const someoneElse = await newPerson(email('wrong'));
    const refused = await accept(token, someoneElse.cookie);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe('invitation_other_account');
    expect(await roleIn(someoneElse.cookie)).toBeNull();
    const invitee = await newPerson(address.toUpperCase());
    expect((await accept(token, invitee.cookie)).status).toBe(200);
    expect(await roleIn(invitee.cookie)).toBe('member');
  });

  it('through the link one signs up without founding an organization, but only with the invited address', async () => {
    const address = email('joiner');
    await invite(address);
    const path = await mailedPath(svc, address, '/invitations/');
    const form = { password: PASSWORD, name: 'Jo', redirect: path };
    const elsewhere = await postForm(svc, '/api/auth/register', { ...form, email: email('other') });
    expect(location(elsewhere)).toContain('/register?error=invalid');
    const noInvitation = await postForm(svc, '/api/auth/register', {
      ...form,
      email: address,
      redirect: '/account',
    });
    expect(location(noInvitation)).toContain('/register?error=invalid');
    const registered = await postForm(svc, '/api/auth/register', { ...form, email: address });
    expect(location(registered)).toBe(path);
    const cookie = setCookie(registered, 'xv_session')!;
    expect((await (await svc.fetch('/api/session', { headers: { cookie } })).json()).memberships).toEqual([]);
    expect((await postForm(svc, path, {}, cookie)).status).toBe(303);
    expect(await roleIn(cookie)).toBe('member');
    expect(await (await svc.fetch('/account', { headers: { cookie } })).text()).toContain(
      'data-email-verified="yes"',
    );
  });

  it('a revoked invitation joins nothing', async () => {
    const address = email('revoked');
    const sent = await (await invite(address)).json();
    const token = tokenOf(await mailedPath(svc, address, '/invitations/'));
    const revoked = await svc.fetch(`/api/org/invitations/${sent.invitation.id}`, {
      method: 'DELETE',
      headers: { cookie: admin.cookie },
    });
    expect(revoked.status).toBe(200);
    const invitee = await newPerson(address);
    expect((await accept(token, invitee.cookie)).status).toBe(404);
    expect(await roleIn(invitee.cookie)).toBeNull();
  });

  it('resending makes a new link and kills the old one', async () => {
    const address = email('resent');
    const sent = await (await invite(address)).json();
    const oldToken = tokenOf(await mailedPath(svc, address, '/invitations/'));
    const resent = await postJson(svc, `/api/org/invitations/${sent.invitation.id}/resend`, {}, admin.cookie);
    expect(resent.status).toBe(200);
    const newToken = tokenOf(await mailedPath(svc, address, '/invitations/'));
    expect(newToken).not.toBe(oldToken);
    const invitee = await newPerson(address);
    expect((await accept(oldToken, invitee.cookie)).status).toBe(404);
    expect((await accept(newToken, invitee.cookie)).status).toBe(200);
  });

  it('an expired invitation joins nothing', async () => {
    const address = email('expired');
    const sent = await (await invite(address)).json();
    const token = tokenOf(await mailedPath(svc, address, '/invitations/'));
    await sql`update invitations set expires_at = ${Date.now() - 1} where id = ${sent.invitation.id}`.execute(
      svc.context.database.kysely,
    );
    const invitee = await newPerson(address);
    expect((await accept(token, invitee.cookie)).status).toBe(404);
    expect(await roleIn(invitee.cookie)).toBeNull();
  });

  it("an invitation of organization A cannot make anyone a member of organization B, nor be managed by B's admin", async () => {
    const otherAdmin = await signUpAdmin(svc.url, { email: email('other'), orgName: 'Other Org' });
    const address = email('cross');
    const sent = await (await invite(address)).json();
    const token = tokenOf(await mailedPath(svc, address, '/invitations/'));
    // B's admin cannot see, resend or revoke A's invitation.
    const list = await (
      await svc.fetch('/api/org/invitations', { headers: { cookie: otherAdmin.cookie } })
    ).json();
    expect(list.invitations).toEqual([]);
    expect(
      (await postJson(svc, `/api/org/invitations/${sent.invitation.id}/resend`, {}, otherAdmin.cookie))
        .status,
    ).toBe(404);
    const invitee = await newPerson(address);
    // Accepting with B active still joins A only.
    expect((await accept(token, `${invitee.cookie}; xv_org=${otherAdmin.orgId}`)).status).toBe(200);
    expect(await roleIn(invitee.cookie, otherAdmin.orgId)).toBeNull();
    expect(await roleIn(invitee.cookie)).toBe('member');
  });

  it('inviting a member is refused; the account page lists pending invitations with resend and a revoke that asks first', async () => {
    const member = await createUser(svc.url, admin.cookie, {
      email: email('already'),
      password: PASSWORD,
      name: 'Al',
      role: 'member',
    });
    expect((await invite(member.session.user.email)).status).toBe(409);
    const address = email('listed');
    const posted = await postForm(
      svc,
      '/account/invitations',
      { email: address, role: 'support' },
      admin.cookie,
    );
    expect(posted.status).toBe(303);
    const html = await (await svc.fetch('/account', { headers: { cookie: admin.cookie } })).text();
    expect(html).toContain(address);
    expect(html).toMatch(
      /<details class="confirm"[^>]*data-confirm="The link sent to [^"]+ will stop working\."[^>]*><summary>Revoke…<\/summary>/,
    );
    const cross = await svc.fetch('/account/invitations', {
      method: 'POST',
      headers: {
        cookie: admin.cookie,
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `email=${encodeURIComponent(email('csrf'))}&role=admin`,
      redirect: 'manual',
    });
    expect(cross.status).toBe(403);
  });
});
