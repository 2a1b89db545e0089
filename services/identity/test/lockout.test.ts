/**
 * Lockout as denial of service: wrong passwords must slow down the one who types them, never lock the owner out.
 * Addresses are told apart by `X-Forwarded-For` (the service trusts its proxy here).
 */
import { createLogger } from '@xv/platform';
import { describeEachDatabase, eventually, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import {
  registerPasskey,
  SoftwareAuthenticator,
  signInWithPasskey,
  signUp,
  startIdentity,
} from '../src/testing/index.js';
import { email, FORM, location, PASSWORD, setCookie, setCookieLine } from './helpers.js';

const STRANGER = '203.0.113.7';
const OWNER = '198.51.100.20';

describeEachDatabase('sign-in throttling', (target) => {
  let svc: RunningService;
  const logLines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const logger = createLogger('identity', 'info', {
      write: (line: string) => void logLines.push(JSON.parse(line)),
    });
    svc = await startIdentity(await target.open('identity'), { XV_TRUST_PROXY: '1' }, { logger });
  });

  const login = (
    service: RunningService,
    address: string,
    password: string,
    from: { ip?: string; cookie?: string } = {},
  ) =>
    service.fetch('/api/auth/login', {
      method: 'POST',
      headers: {
        ...FORM,
        ...(from.ip ? { 'x-forwarded-for': from.ip } : {}),
        ...(from.cookie ? { cookie: from.cookie } : {}),
      },
      body: new URLSearchParams({ email: address, password }).toString(),
      redirect: 'manual',
    });
  const owner = async (service = svc) => {
    const address = email('owner');
    await signUp(service.url, { email: address, password: PASSWORD, name: 'O', orgName: 'O' });
    return address;
  };

  it("a stranger's wrong passwords from another address do not stop the owner from signing in", async () => {
    const address = await owner();
    for (let i = 0; i < 12; i += 1) await login(svc, address, `guess-${i}`, { ip: STRANGER });
    const response = await login(svc, address, PASSWORD, { ip: OWNER });
    expect(location(response)).toBe('/account');
    expect(setCookie(response, 'xv_session')).toBeDefined();
  });

  it("the attacker's own address is slowed: after five failures it waits, longer after each further one", async () => {
    const address = await owner();
    for (let i = 0; i < 5; i += 1)
      expect(location(await login(svc, address, `guess-${i}`, { ip: STRANGER }))).toBe('/login?error=1');
    // Even the right password waits: the answer does not tell whether it was right.
    const first = await login(svc, address, PASSWORD, { ip: STRANGER });
    expect(location(first)).toBe('/login?error=locked');
    expect(first.headers.get('retry-after')).toBe('1');
    expect(setCookie(first, 'xv_session')).toBeUndefined();
    // Once the wait is over, one more failure doubles it.
    await eventually(async () =>
      location(await login(svc, address, 'guess-6', { ip: STRANGER })) === '/login?error=1'
        ? true
        : undefined,
    );
    const second = await login(svc, address, 'guess-7', { ip: STRANGER });
    expect(location(second)).toBe('/login?error=locked');
    expect(second.headers.get('retry-after')).toBe('2');
  });

  it('a known device signs in while a stranger behind the same address keeps failing', async () => {
    const address = await owner();
    const known = await login(svc, address, PASSWORD, { ip: OWNER });
    const device = setCookie(known, 'xv_device')!;
    const line = setCookieLine(known, 'xv_device')!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/Path=\/api\/auth/);
    expect(Number(/Max-Age=(\d+)/.exec(line)?.[1])).toBeGreaterThanOrEqual(90 * 24 * 3600);
    for (let i = 0; i < 8; i += 1) await login(svc, address, `guess-${i}`, { ip: OWNER });
    expect(location(await login(svc, address, PASSWORD, { ip: OWNER }))).toBe('/login?error=locked');
    expect(location(await login(svc, address, PASSWORD, { ip: OWNER, cookie: device }))).toBe('/account');
  });

  it("a known device of one account does not exempt anyone from another account's waits, nor does a forged one", async () => {
    const mine = await owner();
    const victim = await owner();
    const device = setCookie(await login(svc, mine, PASSWORD, { ip: STRANGER }), 'xv_device')!;
    for (let i = 0; i < 6; i += 1) await login(svc, victim, `guess-${i}`, { ip: STRANGER, cookie: device });
    for (const cookie of [device, 'xv_device=v1.AAAA.BBBB.CCCC', 'xv_device=forged'])
      expect(location(await login(svc, victim, PASSWORD, { ip: STRANGER, cookie }))).toBe(
        '/login?error=locked',
      );
  });

  it('a known device that guesses wrong is slowed like anyone else', async () => {
    const address = await owner();
    const device = setCookie(await login(svc, address, PASSWORD, { ip: OWNER }), 'xv_device')!;
    for (let i = 0; i < 5; i += 1) await login(svc, address, `guess-${i}`, { ip: OWNER, cookie: device });
    expect(location(await login(svc, address, PASSWORD, { ip: OWNER, cookie: device }))).toBe(
      '/login?error=locked',
    );
  });

  it('a crowd of addresses trips the account-wide net, which a known device passes', async () => {
    const strict = await startIdentity(await target.open('identity'), {
      XV_TRUST_PROXY: '1',
      XV_IDENTITY_ACCOUNT_SAFETY_FAILURES: '4',
    });
    const address = await owner(strict);
    const device = setCookie(await login(strict, address, PASSWORD, { ip: OWNER }), 'xv_device')!;
    for (let i = 0; i < 4; i += 1) await login(strict, address, 'guess', { ip: `192.0.2.${i + 1}` });
    expect(location(await login(strict, address, PASSWORD, { ip: OWNER }))).toBe('/login?error=locked');
    expect(location(await login(strict, address, PASSWORD, { ip: OWNER, cookie: device }))).toBe('/account');
  });

  it('failed sign-ins with the longest e-mail address are counted like any other, never a 500', async () => {
    const longest = `${'x'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(56)}.test`;
    for (let i = 0; i < 6; i += 1) {
      const response = await login(svc, longest, 'not-the-password', { ip: STRANGER });
      expect(response.status).toBe(303);
    }
    expect(location(await login(svc, longest, 'not-the-password', { ip: STRANGER }))).toBe(
      '/login?error=locked',
    );
  });

  it('passkey sign-in is never blocked by password failures, even from the same address', async () => {
    const strict = await startIdentity(await target.open('identity'), { XV_IDENTITY_IP_MAX_FAILURES: '3' });
    const address = await owner(strict);
    const person = await signUp(strict.url, {
      email: email('pk'),
      password: PASSWORD,
      name: 'P',
      orgName: 'P',
    });
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(strict.url, person.cookie, authenticator, { password: PASSWORD });
    for (let i = 0; i < 4; i += 1) await login(strict, email('spray'), 'guess');
    for (let i = 0; i < 6; i += 1) await login(strict, address, 'guess');
    expect(location(await login(strict, address, PASSWORD))).toBe('/login?error=locked');
    const { session } = await signInWithPasskey(strict.url, authenticator);
    expect(session.aal).toBe('AAL3');
  });

  it('waits and refusals are recorded in the security log, without the e-mail or the password', async () => {
    const address = await owner();
    for (let i = 0; i < 6; i += 1) await login(svc, address, 'not-the-password', { ip: STRANGER });
    const records = logLines.filter((line) => line.event === 'sign_in_throttled');
    expect(records.some((line) => line.outcome === 'wait' && line.address === STRANGER)).toBe(true);
    expect(records.some((line) => line.outcome === 'refused' && line.address === STRANGER)).toBe(true);
    expect(records.every((line) => line.level === 40)).toBe(true);
    const text = JSON.stringify(logLines);
    expect(text).not.toContain(address);
    expect(text).not.toContain('not-the-password');
  });
});
