/**
 * Who may change how an account signs in (NIST SP 800-63B §6.1.2): adding or removing an
 * authenticator and regenerating recovery codes, over HTTP on SQLite and PostgreSQL.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import type { IdentityDb } from '../src/db.js';
import {
  registerPasskey,
  SoftwareAuthenticator,
  signIn,
  signInWithPasskey,
  startIdentity,
  totpCode,
} from '../src/testing/index.js';
import { location, PASSWORD, postJson, signUpAdmin } from './helpers.js';

const ELEVEN_MINUTES = 11 * 60_000;

describeEachDatabase('authenticator changes', (target) => {
  let svc: RunningService;
  beforeAll(async () => {
    // No in-process session cache: the tests move a session's proof times in the database.
    svc = await startIdentity(await target.open('identity'), { XV_IDENTITY_SESSION_CACHE_MS: '0' });
  });

  const db = () => svc.context.database.kysely as IdentityDb;
  const session = async (cookie: string) =>
    (await svc.fetch('/api/session', { headers: { cookie } })).json() as Promise<{
      aal: string;
      amr: string[];
    }>;
  const deletePasskey = (cookie: string, id: string) =>
    svc.fetch(`/api/auth/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE', headers: { cookie } });
  const passkeyIds = async (cookie: string) =>
    (
      (await (await svc.fetch('/api/auth/passkeys', { headers: { cookie } })).json()) as {
        passkeys: { id: string }[];
      }
    ).passkeys.map((p) => p.id);

  async function expectStepUp(response: Response) {
    expect(response.status).toBe(403);
    const body = await response.json();
    expect(body).toMatchObject({ ok: false, error: 'step_up_required', aal: 'AAL2' });
    const url = new URL(body.stepUpUrl);
    expect(url.pathname).toBe('/step-up');
    expect(url.searchParams.get('aal')).toBe('AAL2');
    expect(url.searchParams.get('redirect')).toBe('/account');
  }

  /** A person who bound a passkey as their first second factor; `cookie` is still their password session. */
  async function personWithPasskey(authenticator = new SoftwareAuthenticator()) {
    const admin = await signUpAdmin(svc.url);
    const passkey = await registerPasskey(svc.url, admin.cookie, authenticator, { password: PASSWORD });
    return { ...admin, authenticator, passkeyId: passkey.id };
  }

  /** A person who turned TOTP on from their password session; `cookie` is still that session. */
  async function personWithTotp() {
    const admin = await signUpAdmin(svc.url);
    const { secret } = await (
      await postJson(svc, '/api/auth/2fa/setup', { password: PASSWORD }, admin.cookie)
    ).json();
    const code = totpCode(secret, Date.now() - 30_000);
    expect((await postJson(svc, '/api/auth/2fa/enable', { code }, admin.cookie)).status).toBe(200);
    return { ...admin, secret };
  }

  it('a password-only session of an account with a passkey cannot delete that passkey', async () => {
    const person = await personWithPasskey();
    await expectStepUp(await deletePasskey(person.cookie, person.passkeyId));
    expect(await passkeyIds(person.cookie)).toEqual([person.passkeyId]);
  });

  it('a password-only session of an account with a passkey cannot enrol another one, even with the password', async () => {
    const person = await personWithPasskey();
    await expectStepUp(await postJson(svc, '/api/auth/passkey/register/options', {}, person.cookie));
    await expectStepUp(
      await postJson(svc, '/api/auth/passkey/register/options', { password: PASSWORD }, person.cookie),
    );
    // Nor can it then lift itself to AAL3 with a passkey of the attacker's.
    const attackers = new SoftwareAuthenticator();
    await expect(registerPasskey(svc.url, person.cookie, attackers, { password: PASSWORD })).rejects.toThrow(
      /403/,
    );
    await expect(signInWithPasskey(svc.url, attackers, person.cookie)).rejects.toThrow();
    expect((await session(person.cookie)).aal).toBe('AAL1');
  });

  it('a password-only session of an account with TOTP cannot disable it, even with a valid code', async () => {
    const person = await personWithTotp();
    await expectStepUp(
      await postJson(
        svc,
        '/api/auth/2fa/disable',
        { code: totpCode(person.secret, Date.now() + 30_000) },
        person.cookie,
      ),
    );
    expect(
      await (await svc.fetch('/api/auth/2fa', { headers: { cookie: person.cookie } })).json(),
    ).toMatchObject({
      enabled: true,
    });
  });

  it('a password-only session of an account with TOTP cannot regenerate its recovery codes', async () => {
    const person = await personWithTotp();
    await expectStepUp(await postJson(svc, '/api/auth/2fa/recovery-codes', {}, person.cookie));
  });

  it('a password-only session of an account with a passkey cannot start TOTP enrolment', async () => {
    const person = await personWithPasskey();
    await expectStepUp(await postJson(svc, '/api/auth/2fa/setup', { password: PASSWORD }, person.cookie));
  });

  it('binding a first second factor without the password, or with a wrong one, is refused', async () => {
    const admin = await signUpAdmin(svc.url);
    for (const path of ['/api/auth/2fa/setup', '/api/auth/passkey/register/options']) {
      const missing = await postJson(svc, path, {}, admin.cookie);
      expect(missing.status).toBe(403);
      expect(await missing.json()).toMatchObject({ ok: false, error: 'password_required' });
      const bodiless = await svc.fetch(path, { method: 'POST', headers: { cookie: admin.cookie } });
      expect(bodiless.status).toBe(403);
      expect(await bodiless.json()).toMatchObject({ error: 'password_required' });
      const wrong = await postJson(svc, path, { password: 'not-the-password' }, admin.cookie);
      expect(wrong.status).toBe(403);
      expect(await wrong.json()).toMatchObject({ ok: false, error: 'wrong_password' });
    }
    expect((await postJson(svc, '/api/auth/2fa/setup', { password: PASSWORD }, admin.cookie)).status).toBe(
      200,
    );
  });

  it('wrong passwords at a factor binding count against the account lockout', async () => {
    const admin = await signUpAdmin(svc.url);
    for (let i = 0; i < 5; i += 1)
      await postJson(svc, '/api/auth/passkey/register/options', { password: `wrong-${i}` }, admin.cookie);
    const locked = await postJson(
      svc,
      '/api/auth/passkey/register/options',
      { password: PASSWORD },
      admin.cookie,
    );
    expect(locked.status).toBe(429);
  });

  it('enrolling TOTP does not raise the session that enrolled it: the next sign-in must use it', async () => {
    const person = await personWithTotp();
    expect(await session(person.cookie)).toMatchObject({ aal: 'AAL1', amr: ['pwd'] });
    const stepUp = await svc.fetch('/step-up?aal=AAL2&redirect=%2Faccount', {
      headers: { cookie: person.cookie },
      redirect: 'manual',
    });
    expect(new URL(location(stepUp), svc.url).pathname).toBe('/login');
    const signedIn = await signIn(svc.url, person.session.user.email, PASSWORD, {
      totpSecret: person.secret,
    });
    expect(signedIn.session).toMatchObject({ aal: 'AAL2', amr: ['pwd', 'otp'] });
  });

  it('a passkey enrolled in a session does not lift that session: it stays AAL1 until a step-up uses the passkey', async () => {
    const person = await personWithPasskey();
    expect(await session(person.cookie)).toMatchObject({ aal: 'AAL1', amr: ['pwd'] });
    const stepped = await signInWithPasskey(svc.url, person.authenticator, person.cookie);
    expect(stepped.session.aal).toBe('AAL3');
  });

  it('a synced passkey does not grant AAL3', async () => {
    const person = await personWithPasskey(new SoftwareAuthenticator({ deviceBound: false }));
    const stepped = await signInWithPasskey(svc.url, person.authenticator, person.cookie);
    expect(stepped.session.aal).toBe('AAL2');
    const fresh = await signInWithPasskey(svc.url, person.authenticator);
    expect(fresh.session).toMatchObject({ aal: 'AAL2', amr: ['swk', 'mfa'] });
  });

  it('a session that proved AAL2 within 10 minutes may change authenticators', async () => {
    const person = await personWithPasskey();
    const stepped = await signInWithPasskey(svc.url, person.authenticator, person.cookie);
    const second = await registerPasskey(svc.url, stepped.cookie, new SoftwareAuthenticator());
    expect((await deletePasskey(stepped.cookie, second.id)).status).toBe(200);
    expect((await deletePasskey(stepped.cookie, person.passkeyId)).status).toBe(200);
  });

  it('AAL2 proved 11 minutes ago is not enough', async () => {
    const person = await personWithPasskey();
    const stepped = await signInWithPasskey(svc.url, person.authenticator, person.cookie);
    const past = Date.now() - ELEVEN_MINUTES;
    await db()
      .updateTable('sessions')
      .set({ aal2_at: past, aal3_at: past })
      .where('user_id', '=', person.session.user.id)
      .execute();
    expect((await session(stepped.cookie)).aal).toBe('AAL3');
    await expectStepUp(await deletePasskey(stepped.cookie, person.passkeyId));
    await expectStepUp(await postJson(svc, '/api/auth/passkey/register/options', {}, stepped.cookie));
    // The step-up address leads to a new proof, although the session's level is high enough.
    const stepUp = await svc.fetch('/step-up?aal=AAL2&max_age=600&redirect=%2Faccount', {
      headers: { cookie: stepped.cookie },
      redirect: 'manual',
    });
    expect(new URL(location(stepUp), svc.url).pathname).toBe('/login');
    const again = await signInWithPasskey(svc.url, person.authenticator, stepped.cookie);
    expect((await deletePasskey(again.cookie, person.passkeyId)).status).toBe(200);
  });

  it('removing the last second factor of a member of an organization that requires 2FA is refused', async () => {
    const person = await personWithPasskey();
    const setting = await postJson(svc, '/api/org/settings', { require_2fa: true }, person.cookie);
    expect(setting.status).toBe(200);
    expect(await setting.json()).toMatchObject({ ok: true, org_id: person.orgId, require_2fa: true });
    const stepped = await signInWithPasskey(svc.url, person.authenticator, person.cookie);
    const refused = await deletePasskey(stepped.cookie, person.passkeyId);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ ok: false, error: 'second_factor_required' });
    expect(await passkeyIds(stepped.cookie)).toEqual([person.passkeyId]);
    // With another second factor in place, this one may go.
    await registerPasskey(svc.url, stepped.cookie, new SoftwareAuthenticator());
    expect((await deletePasskey(stepped.cookie, person.passkeyId)).status).toBe(200);
  });

  it('disabling TOTP, the last second factor, is refused when the organization requires 2FA', async () => {
    const person = await personWithTotp();
    expect((await postJson(svc, '/api/org/settings', { require_2fa: true }, person.cookie)).status).toBe(200);
    const signedIn = await signIn(svc.url, person.session.user.email, PASSWORD, {
      totpSecret: person.secret,
    });
    const code = totpCode(person.secret, Date.now() + 30_000);
    const refused = await postJson(svc, '/api/auth/2fa/disable', { code }, signedIn.cookie);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: 'second_factor_required' });
  });
});
