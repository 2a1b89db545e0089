import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadPlatformSettings } from './platform.js';
import { loadSettings, SettingsError, setting } from './settings.js';

function problemsOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof SettingsError) return error;
  }
  throw new Error('expected a SettingsError');
}

describe('settings', () => {
  it('applies defaults from the contract when nothing is set', () => {
    const s = loadPlatformSettings('knowledge', {});
    expect(s.dataDir).toBe('./data');
    expect(s.sharedDomain).toBe('localhost');
    expect(s.services.identity).toEqual({ port: 4001, url: 'http://localhost:4001' });
    expect(s.services.knowledge.port).toBe(4002);
    expect(s.services.chain.port).toBe(4006);
    expect(s.serviceDatabaseUrl).toBeUndefined();
  });

  it('reads ports, public URLs and the shared domain', () => {
    const s = loadPlatformSettings('trust', {
      XV_TRUST_PORT: '5003',
      XV_IDENTITY_URL: 'https://id.example.com/',
      XV_SHARED_DOMAIN: 'Example.com',
    });
    expect(s.services.trust).toEqual({ port: 5003, url: 'http://localhost:5003' });
    expect(s.services.identity.url).toBe('https://id.example.com');
    expect(s.sharedDomain).toBe('example.com');
  });

  it("prefers the service's own database URL over DATABASE_URL", () => {
    const env = { DATABASE_URL: 'postgres://a/shared', XV_KB_DATABASE_URL: 'postgres://b/kb' };
    expect(loadPlatformSettings('knowledge', env).serviceDatabaseUrl).toBe('postgres://b/kb');
    expect(loadPlatformSettings('identity', env).serviceDatabaseUrl).toBe('postgres://a/shared');
  });

  it("puts a service's tables in the schema named after it unless told otherwise", () => {
    expect(loadPlatformSettings('knowledge', {}).databaseSchema).toBe('knowledge');
    expect(loadPlatformSettings('knowledge', { XV_KB_DATABASE_SCHEMA: 'kb_staging' }).databaseSchema).toBe(
      'kb_staging',
    );
    expect(
      problemsOf(() => loadPlatformSettings('knowledge', { XV_KB_DATABASE_SCHEMA: 'x; drop' })).message,
    ).toContain('XV_KB_DATABASE_SCHEMA');
  });

  it('keeps at most XV_DATABASE_POOL_SIZE PostgreSQL connections per process (default 10)', () => {
    expect(loadPlatformSettings('agent', {}).databasePoolSize).toBe(10);
    expect(loadPlatformSettings('agent', { XV_DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    expect(problemsOf(() => loadPlatformSettings('agent', { XV_DATABASE_POOL_SIZE: '0' })).message).toContain(
      'XV_DATABASE_POOL_SIZE',
    );
  });

  it('names every bad variable in one error', () => {
    const error = problemsOf(() =>
      loadPlatformSettings('identity', {
        XV_SHARED_DOMAIN: 'http://bad/',
        XV_LOG_LEVEL: 'loud',
        XV_BODY_LIMIT_BYTES: '-1',
      }),
    );
    const names = error.problems.map((p) => p.env);
    expect(names).toEqual(
      expect.arrayContaining(['XV_SHARED_DOMAIN', 'XV_LOG_LEVEL', 'XV_BODY_LIMIT_BYTES']),
    );
    expect(error.message).toContain('XV_LOG_LEVEL');
  });

  it('rejects a port out of range and a URL that is not http(s)', () => {
    expect(
      problemsOf(() => loadPlatformSettings('identity', { XV_IDENTITY_PORT: '70000' })).message,
    ).toContain('XV_IDENTITY_PORT');
    expect(problemsOf(() => loadPlatformSettings('identity', { XV_KB_URL: 'ftp://x' })).message).toContain(
      'XV_KB_URL',
    );
  });

  it('rejects a database URL that is not PostgreSQL without echoing it', () => {
    const error = problemsOf(() =>
      loadPlatformSettings('identity', { DATABASE_URL: 'mysql://root:hunter2@db/x' }),
    );
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).not.toContain('hunter2');
  });

  it('treats an empty variable as unset', () => {
    const spec = { size: setting('SIZE', z.coerce.number().default(7)) };
    expect(loadSettings(spec, { SIZE: '' }).size).toBe(7);
  });
});
