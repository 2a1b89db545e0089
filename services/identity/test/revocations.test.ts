/**
 * The revocation epoch and what hangs on it: the public long-poll other services
 * keep open, the session cache of identity instances sharing one database, the
 * internal membership check, and disabled users.
 */
import { type Database, newId } from '@xv/platform';
import { describeEachDatabase, type RunningService, within } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { setUserDisabled } from '../src/accounts/repository.js';
import type { Tables } from '../src/db.js';
import {
  createUser,
  registerPasskey,
  SoftwareAuthenticator,
  signInWithPasskey,
  startIdentity,
} from '../src/testing/index.js';
import { type Admin, email, PASSWORD, postForm, startWithAdmin } from './helpers.js';

describeEachDatabase('revocations', (target) => {
  let database: Database<Tables>;
  let svc: RunningService;
  let second: RunningService;
  let admin: Admin;
  let orgId: string;

  beforeAll(async () => {
    ({ svc, admin, orgId } = await startWithAdmin(target, { email: email('owner'), orgName: 'Revokers' }));
    database = svc.context.database;
    // A second identity instance on the same database, as behind a load balancer.
    second = await startIdentity(database, { XV_DATA_DIR: svc.context.settings.dataDir });
  });

  const epochOf = async (service: RunningService, after?: number) => {
    const response = await service.fetch(
      `/api/revocations/epoch${after === undefined ? '' : `?after=${after}`}`,
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { epoch: number }).epoch;
  };
  const newMember = () =>
    createUser(svc.url, admin.cookie, {
      email: email('member'),
      password: PASSWORD,
      name: 'Mo',
      role: 'member',
    });
  const remove = async (userId: string) => {
    const response = await svc.fetch(`/api/org/members/${userId}`, {
      method: 'DELETE',
      headers: { cookie: admin.cookie },
    });
    expect(response.status).toBe(200);
  };
  const sessionAt = (service: RunningService, cookie: string) =>
    service.fetch('/api/session', { headers: { cookie } });
  const internal = (query: string, token: string | null = svc.context.internalToken) =>
    svc.fetch(`/api/internal/memberships?${query}`, {
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });

  it('the epoch long-poll answers at once without `after`, and as soon as a member is removed with it', async () => {
    const member = await newMember();
    const before = await epochOf(svc);
    const waiting = epochOf(second, before); // held: nothing changed yet
    await remove(member.session.user.id);
    expect(await waiting).toBeGreaterThan(before);
  });

  it('a waiting long-poll answers when an operator command writes a change straight into the database', async () => {
    const member = await newMember();
    const before = await epochOf(svc);
    const waiting = epochOf(svc, before);
    await setUserDisabled(database, 'default', member.session.user.email, true);
    expect(await waiting).toBeGreaterThan(before);
  });

  it('refuses an `after` that is not a number with 400', async () => {
    const response = await svc.fetch('/api/revocations/epoch?after=soon');
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_request');
  });

  it('a session cached by one identity instance loses the organization within a second when another instance removes the member', async () => {
    const member = await newMember();
    const inOrg = async () => {
      const session = await (await sessionAt(second, member.cookie)).json();
      return session.memberships.some((m: { org_id: string }) => m.org_id === orgId);
    };
    expect(await inOrg()).toBe(true); // now cached by the second instance
    await remove(member.session.user.id); // through the first
    expect(await within(1000, inOrg, (still) => !still)).toBe(false);
  });

  it('a disabled user is signed out everywhere and cannot sign in; enabled again, they can', async () => {
    const address = email('disabled');
    const user = await createUser(svc.url, admin.cookie, {
      email: address,
      password: PASSWORD,
      name: 'D',
      role: 'member',
    });
    expect((await sessionAt(second, user.cookie)).status).toBe(200); // cached by the second instance
    expect(await setUserDisabled(database, 'default', address, true)).toBe('changed');
    expect(await setUserDisabled(database, 'default', address, true)).toBe('unchanged');

    // Written straight into the database, as `xv user disable` does: both instances notice the epoch.
    const atFirst = await within(
      1000,
      () => sessionAt(svc, user.cookie),
      (r) => r.status === 401,
    );
    expect(atFirst.status).toBe(401);
    const atSecond = await within(
      1000,
      () => sessionAt(second, user.cookie),
      (r) => r.status === 401,
    );
    expect(atSecond.status).toBe(401);

    const disabledLogin = await postForm(svc, '/api/auth/login', { email: address, password: PASSWORD });
    const wrongPassword = await postForm(svc, '/api/auth/login', { email: address, password: 'not-it-1' });
    expect(disabledLogin.status).toBe(303);
    expect(disabledLogin.headers.get('location')).toBe(wrongPassword.headers.get('location'));
    expect(disabledLogin.headers.get('set-cookie') ?? '').not.toContain('xv_session=');

    expect(await setUserDisabled(database, 'default', address, false)).toBe('changed');
    const login = await postForm(svc, '/api/auth/login', { email: address, password: PASSWORD });
    expect(login.headers.get('set-cookie') ?? '').toContain('xv_session=');
  });

  it("a disabled user's passkey no longer signs them in", async () => {
    const address = email('passkey');
    const user = await createUser(svc.url, admin.cookie, {
      email: address,
      password: PASSWORD,
      name: 'P',
      role: 'member',
    });
    const key = new SoftwareAuthenticator();
    await registerPasskey(svc.url, user.cookie, key, { password: PASSWORD });
    await signInWithPasskey(svc.url, key); // works while enabled
    await setUserDisabled(database, 'default', address, true);
    await expect(signInWithPasskey(svc.url, key)).rejects.toThrow(/passkey sign-in/);
  });

  it('the internal membership check answers only with the internal credential', async () => {
    const member = await newMember();
    const query = `user_id=${member.session.user.id}&org_id=${orgId}`;
    expect((await internal(query, null)).status).toBe(401);
    expect((await internal(query, 'x'.repeat(64))).status).toBe(401);
    expect((await internal(query, member.cookie)).status).toBe(401);
    const answer = await internal(query);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ member: true, role: 'member', permissions: [], active: true });

    await remove(member.session.user.id);
    expect(await (await internal(query)).json()).toMatchObject({ member: false, role: null, active: true });
    expect(await (await internal(`user_id=${newId('usr')}&org_id=${orgId}`)).json()).toMatchObject({
      member: false,
      active: false,
    });
    expect((await internal('user_id=')).status).toBe(400);
  });

  it('the member admin page says what removing a member revokes', async () => {
    const page = await (await svc.fetch('/account', { headers: { cookie: admin.cookie } })).text();
    expect(page).toContain('id="member-removal-note"');
    expect(page).toMatch(/knowledge-base tokens for it; service clients belong to the organization and stay/);
  });

  it('keeps the internal membership check out of the public OpenAPI document', async () => {
    const document = await (await svc.fetch('/openapi.json')).json();
    expect(Object.keys(document.paths)).toContain('/api/revocations/epoch');
    expect(Object.keys(document.paths)).not.toContain('/api/internal/memberships');
  });

  it('a long-poll waiting on a stopping instance answers at once instead of holding the shutdown', async () => {
    const third = await startIdentity(database, { XV_DATA_DIR: svc.context.settings.dataDir });
    const before = await epochOf(third);
    const waiting = third.fetch(`/api/revocations/epoch?after=${before}`);
    await new Promise((resolve) => setTimeout(resolve, 100)); // let it reach the server and wait
    let closed = false;
    const closing = third.close().then(() => {
      closed = true;
    });
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect((await answer.json()).epoch).toBe(before);
    await closing;
    expect(closed).toBe(true);
  });
});
