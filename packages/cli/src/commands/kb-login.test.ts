/**
 * `xv kb login` end to end: the CLI prints a code and a link, the person approves in the browser with 2FA,
 * the token lands in the configuration folder readable by its owner only, `xv kb sync` pushes with it (the
 * knowledge base accepts the audience-bound JWT) and refreshes it once it expires. PATs keep working.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { approveDevice, enableTotp, signUp, startIdentity } from '@xv/identity/testing';
import { startKnowledge } from '@xv/knowledge/testing';
import {
  describeEachDatabase,
  eventually,
  freePort,
  type RunningService,
  tempDir,
} from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { kbCommand } from './kb.js';
import { loginFile } from './kb-login.js';

describeEachDatabase('xv kb login (device sign-in) and sync with its token', (target) => {
  let identity: RunningService;
  let kb: RunningService;

  beforeAll(async () => {
    // The identity service names the knowledge base as the resource its tokens are for: its URL comes first.
    const kbPort = await freePort();
    identity = await startIdentity(await target.open('identity'), {
      XV_KB_URL: `http://127.0.0.1:${kbPort}`,
    });
    kb = await startKnowledge(await target.open('knowledge'), identity.url, {}, { port: kbPort });
  });

  it('signs in with a code approved in the browser, keeps the token owner-only, syncs and refreshes', async () => {
    const person = await signUp(identity.url, {
      email: `desk-${Date.now()}@acme.test`,
      password: 'secret-pass-1',
      name: 'Dee',
      orgName: 'Acme',
    });
    const { cookie } = await enableTotp(identity.url, person.cookie, 'secret-pass-1');
    const env = { XDG_CONFIG_HOME: tempDir('xv-config-'), XV_KB_URL: kb.url, XV_IDENTITY_URL: identity.url };

    const lines: string[] = [];
    const login = kbCommand(['login'], env, (line) => lines.push(line));
    const link = await eventually(async () =>
      lines.map((l) => /\(or open (\S+)\)/.exec(l)?.[1]).find(Boolean),
    );
    expect(lines[0]).toMatch(
      /open http:\/\/127\.0\.0\.1:\d+\/oidc\/default\/device and enter the code [A-Z]{4}-[A-Z]{4}/,
    );
    const done = await approveDevice(cookie, link);
    expect(done.html).toContain('is signed in');
    expect(await login).toBe(0);

    const file = loginFile(env);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);

    const vault = tempDir('xv-vault-');
    writeFileSync(join(vault, 'leave.md'), '# Leave\n\nTwenty-five days.');
    const out: string[] = [];
    expect(await kbCommand(['sync', vault], env, (line) => out.push(line))).toBe(0);
    expect(out).toContain('+ leave.md');

    // An expired token is refreshed before the next sync.
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { access_token: string; expires_at: number };
    writeFileSync(file, JSON.stringify({ ...stored, expires_at: Date.now() - 1000 }), { mode: 0o600 });
    writeFileSync(join(vault, 'travel.md'), '# Travel\n\nBook early.');
    const again: string[] = [];
    expect(await kbCommand(['sync', vault], env, (line) => again.push(line))).toBe(0);
    expect(again).toContain('+ travel.md');
    const refreshed = JSON.parse(readFileSync(file, 'utf8')) as { access_token: string; expires_at: number };
    expect(refreshed.access_token).not.toBe(stored.access_token);
    expect(refreshed.expires_at).toBeGreaterThan(Date.now());
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('the knowledge base refuses an unsigned JWT and one from an issuer that is not XV’s identity', async () => {
    const push = (token: string) =>
      kb.fetch('/api/sync/manifest', { headers: { authorization: `Bearer ${token}` } });
    const forged = ['eyJhbGciOiJub25lIn0', btoa(JSON.stringify({ iss: `${identity.url}/oidc/default` })), 'x']
      .join('.')
      .replaceAll('=', '');
    expect((await push(forged)).status).toBe(401);
    const foreign = [
      'eyJhbGciOiJSUzI1NiJ9',
      btoa(JSON.stringify({ iss: 'https://evil.test/oidc/default' })),
      'x',
    ]
      .join('.')
      .replaceAll('=', '');
    expect((await push(foreign)).status).toBe(401);
  });
});
