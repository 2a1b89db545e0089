import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { sampleService } from '../testing/fixtures/sample-service.js';
import { type RunningService, startService, tempDir } from '../testing/index.js';
import { safeReturnPath } from './preferences.js';

let service: RunningService;

beforeAll(async () => {
  const database = await openDatabase({ service: 'sample', dataDir: tempDir() });
  service = await startService(sampleService, { database, env: { XV_SHARED_DOMAIN: 'xv.test' } });
});

describe('the theme switch', () => {
  const post = (to: string) =>
    service.fetch('/theme', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: service.url },
      body: new URLSearchParams({ to }),
    });

  it('remembers light or dark for every service, and forgets it for the system’s', async () => {
    const dark = await post('dark');
    expect(dark.status).toBe(204);
    expect(dark.headers.get('set-cookie')).toMatch(/^xv_theme=dark;.*Domain=xv\.test/);
    const system = await post('system');
    expect(system.headers.get('set-cookie')).toMatch(/^xv_theme=;.*Max-Age=0/);
  });

  it('refuses a theme it does not know', async () => {
    const response = await post('neon');
    expect(response.status).toBe(400);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('cross-site: a form on another site cannot change the theme', async () => {
    const response = await service.fetch('/theme', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' },
      body: 'to=dark',
    });
    expect(response.status).toBe(403);
  });
});

describe('the language switch', () => {
  it('remembers the choice in a cookie shared under the domain and returns to the page', async () => {
    const response = await service.fetch('/lang?to=vi&back=%2Flibrary%3Fq%3Dth%E1%BA%BB', {
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/library?q=th%E1%BA%BB');
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^xv_lang=vi;/);
    expect(cookie).toContain('Domain=xv.test');
    expect(cookie).toMatch(/Max-Age=31536000/);
  });

  it('sets nothing for a language XV does not speak', async () => {
    const response = await service.fetch('/lang?to=fr&back=/', { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('open redirect: a way back to another site goes home instead', async () => {
    for (const back of [
      'https://evil.test/',
      '//evil.test/x',
      '/\\evil.test',
      'javascript:alert(1)',
      '/%0d%0aX: y',
    ]) {
      const response = await service.fetch(`/lang?to=en&back=${encodeURIComponent(back)}`, {
        redirect: 'manual',
      });
      const location = response.headers.get('location') ?? '';
      expect(location.startsWith('/') && !location.startsWith('//') && !location.includes('\\')).toBe(true);
      expect(location).not.toContain('evil');
    }
    expect(safeReturnPath('/\r\nSet-Cookie: x')).toBe('/');
  });
});
