import { KeyEncryptionKey } from '@xv/platform';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import type { Tables } from '../src/db.js';
import { openTotpSecret } from '../src/mfa/totp.js';
import { enableTotp, startIdentity, totpCode } from '../src/testing/index.js';
import {
  email,
  location,
  PASSWORD,
  postForm,
  postJson,
  setCookie,
  setCookieLine,
  signUpAdmin,
} from './helpers.js';

/** The next time step's code: enrolment already spent the current one. */
const nextCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

describeEachDatabase('two-factor sign-in', (target) => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
  });

  async function personWith2fa() {
    const address = email('2fa');
    const { cookie } = await signUpAdmin(svc.url, { email: address, name: 'T' });
    const { secret, recoveryCodes, cookie: elevated } = await enableTotp(svc.url, cookie, PASSWORD);
    return { address, secret, recoveryCodes, cookie: elevated };
  }

  async function startLogin(address: string, extra: Record<string, string> = {}) {
    const response = await postForm(svc, '/api/auth/login', {
      email: address,
      password: PASSWORD,
      ...extra,
    });
    return { response, mfa: setCookie(response, 'xv_mfa')! };
  }

  it('login of a user with 2FA sets the temporary xv_mfa cookie and goes to /login/2fa, without a session', async () => {
    const { address } = await personWith2fa();
    const { response, mfa } = await startLogin(address);
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/login/2fa');
    expect(mfa).toMatch(/^xv_mfa=xmf_/);
    expect(setCookieLine(response, 'xv_mfa')).toMatch(/HttpOnly/);
    expect(setCookie(response, 'xv_session')).toBeUndefined();
  });

  it('a valid code completes the sign-in with amr [pwd, otp] and AAL2, clearing xv_mfa', async () => {
    const { address, secret } = await personWith2fa();
    const { mfa } = await startLogin(address, { redirect: '/account?tab=security' });
    const response = await postForm(svc, '/api/auth/2fa', { code: nextCode(secret) }, mfa);
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/account?tab=security');
    expect(setCookieLine(response, 'xv_mfa')).toMatch(/Max-Age=0/);
    const cookie = setCookie(response, 'xv_session')!;
    const session = await (await svc.fetch('/api/session', { headers: { cookie } })).json();
    expect(session).toMatchObject({ amr: ['pwd', 'otp'], aal: 'AAL2', user: { email: address } });
  });

  it('a TOTP code cannot be replayed, even in a new sign-in', async () => {
    const { address, secret } = await personWith2fa();
    const code = nextCode(secret);
    const first = await startLogin(address);
    expect(location(await postForm(svc, '/api/auth/2fa', { code }, first.mfa))).toBe('/account');
    const second = await startLogin(address);
    const replay = await postForm(svc, '/api/auth/2fa', { code }, second.mfa);
    expect(location(replay)).toBe('/login/2fa?error=1');
    expect(setCookie(replay, 'xv_session')).toBeUndefined();
  });

  it('the code used to enable 2FA cannot be used again to sign in', async () => {
    const address = email('enable');
    const { cookie } = await signUpAdmin(svc.url, { email: address, name: 'T' });
    const { secret } = await (
      await postJson(svc, '/api/auth/2fa/setup', { password: PASSWORD }, cookie)
    ).json();
    const code = totpCode(secret);
    expect((await postJson(svc, '/api/auth/2fa/enable', { code }, cookie)).status).toBe(200);
    const { mfa } = await startLogin(address);
    // The same code, unless the clock just moved to the next step (then the old step is refused anyway).
    expect(location(await postForm(svc, '/api/auth/2fa', { code }, mfa))).toBe('/login/2fa?error=1');
  });

  it('a recovery code signs in once, and is refused the second time', async () => {
    const { address, recoveryCodes } = await personWith2fa();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const code = recoveryCodes[3]!;
    const first = await startLogin(address);
    const ok = await postForm(svc, '/api/auth/2fa', { code: code.toUpperCase() }, first.mfa);
    expect(location(ok)).toBe('/account');
    const second = await startLogin(address);
    const reused = await postForm(svc, '/api/auth/2fa', { code }, second.mfa);
    expect(location(reused)).toBe('/login/2fa?error=1');
  });

  it('a wrong or missing code answers 303 /login/2fa?error=1', async () => {
    const { address, secret } = await personWith2fa();
    const { mfa } = await startLogin(address);
    const wrongCode = String((Number(nextCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    for (const code of [wrongCode, '', 'abc', '1'.repeat(100)]) {
      const response = await postForm(svc, '/api/auth/2fa', { code }, mfa);
      expect(location(response)).toBe('/login/2fa?error=1');
    }
  });

  it('without a pending xv_mfa challenge, the 2FA step sends back to /login', async () => {
    for (const cookie of [undefined, 'xv_mfa=xmf_forged']) {
      const response = await postForm(svc, '/api/auth/2fa', { code: '123456' }, cookie);
      expect(response.status).toBe(303);
      expect(location(response)).toBe('/login?error=expired');
    }
  });

  it('enrolment: setup gives a secret, an otpauth URL and an SVG QR code; a wrong first code is refused', async () => {
    const { cookie } = await signUpAdmin(svc.url, { email: email('qr'), name: 'Q' });
    const setup = await postJson(svc, '/api/auth/2fa/setup', { password: PASSWORD }, cookie);
    expect(setup.status).toBe(200);
    const body = await setup.json();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(body.qrSvg).toMatch(/^<svg/);
    const wrong = await postJson(svc, '/api/auth/2fa/enable', { code: '000000' }, cookie);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_code' });
  });

  it('enrolment endpoints need a session and the right state', async () => {
    expect((await postJson(svc, '/api/auth/2fa/setup', {})).status).toBe(401);
    const { cookie } = await signUpAdmin(svc.url, { email: email('st'), name: 'S' });
    expect((await postJson(svc, '/api/auth/2fa/enable', { code: '123456' }, cookie)).status).toBe(409);
    expect((await postJson(svc, '/api/auth/2fa/disable', { code: '123456' }, cookie)).status).toBe(409);
  });

  it('disabling needs a current code; afterwards login needs the password only', async () => {
    const { address, secret, cookie } = await personWith2fa();
    const state = await (await svc.fetch('/api/auth/2fa', { headers: { cookie } })).json();
    expect(state).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect((await postJson(svc, '/api/auth/2fa/disable', { code: '000000' }, cookie)).status).toBe(400);
    expect((await postJson(svc, '/api/auth/2fa/disable', { code: nextCode(secret) }, cookie)).status).toBe(
      200,
    );
    const login = await postForm(svc, '/api/auth/login', { email: address, password: PASSWORD });
    expect(location(login)).toBe('/account');
  });
});

describeEachDatabase('TOTP secrets at rest', (target) => {
  const kek = KeyEncryptionKey.fromBytes(Buffer.alloc(32, 5));
  const env = { XV_IDENTITY_KEK: Buffer.alloc(32, 5).toString('base64') };

  it('are sealed and bound to their user; plaintext secrets of earlier versions are sealed at the next start', async () => {
    const database = await target.open<Tables>('identity');
    const first = await startIdentity(database, env);
    const address = email('sealed');
    const { cookie } = await signUpAdmin(first.url, { email: address, name: 'T' });
    const { secret } = await enableTotp(first.url, cookie, PASSWORD);
    await first.close();

    const users = database.kysely;
    const row = await users
      .selectFrom('users')
      .select(['id', 'totp_secret'])
      .where('email', '=', address)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(secret);
    expect(openTotpSecret(kek, row.id, row.totp_secret!)).toBe(secret);
    expect(() => openTotpSecret(kek, 'usr_someone_else', row.totp_secret!)).toThrow();

    await users.updateTable('users').set({ totp_secret: secret }).where('id', '=', row.id).execute();
    const second = await startIdentity(database, env);
    const resealed = await users
      .selectFrom('users')
      .select('totp_secret')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(resealed.totp_secret).toMatch(/^v1\./);
    const login = await postForm(second, '/api/auth/login', { email: address, password: PASSWORD });
    const done = await postForm(
      second,
      '/api/auth/2fa',
      { code: nextCode(secret) },
      setCookie(login, 'xv_mfa')!,
    );
    expect(setCookie(done, 'xv_session')).toMatch(/^xv_session=/);
    await second.close();
  });
});
