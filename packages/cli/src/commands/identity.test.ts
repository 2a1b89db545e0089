import { accounts, type Tables } from '@xv/identity';
import { type Database, openDatabase } from '@xv/platform';
import { tempDir } from '@xv/platform/testing';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../launcher/start.js';
import { orgCommand, realmCommand, serviceClientCommand, userCommand } from './identity.js';

describe('operator commands of the identity service', () => {
  let env: Record<string, string>;
  const lines: string[] = [];
  const out = (line: string) => lines.push(line);

  async function withDb<T>(work: (db: Kysely<Tables>, database: Database) => Promise<T>) {
    const database = await openDatabase<Tables>({ service: 'identity', dataDir: env.XV_DATA_DIR! });
    try {
      return await work(database.kysely, database as Database);
    } finally {
      await database.close();
    }
  }

  beforeAll(() => {
    env = { XV_DATA_DIR: tempDir() };
  });

  it('creates a realm once and lists it', async () => {
    expect(await realmCommand(['create', 'partners', 'Partner', 'portal'], env, out)).toBe(0);
    expect(await realmCommand(['create', 'partners'], env, out)).toBe(1);
    lines.length = 0;
    expect(await realmCommand(['list'], env, out)).toBe(0);
    expect(lines).toEqual(['default\tDefault', 'partners\tPartner portal']);
  });

  it('refuses bad usage', async () => {
    await expect(realmCommand(['create', 'Bad Realm!'], env, out)).rejects.toThrow(UsageError);
    await expect(orgCommand(['verify'], env, out)).rejects.toThrow(UsageError);
    await expect(serviceClientCommand(['create', 'x'], env, out)).rejects.toThrow(UsageError);
  });

  it('marks an organization KYC-verified', async () => {
    const orgId = await withDb(async (db, database) => {
      const result = await accounts.registerAccount(database as never, {
        realmId: 'default',
        email: 'kyc@example.test',
        name: 'K',
        orgName: 'Know Your Customer',
        passwordHash: 'x',
      });
      if (!result.ok) throw new Error('registration failed');
      expect((await accounts.findOrganization(db, result.org.id))?.verified).toBe(0);
      return result.org.id;
    });
    expect(await orgCommand(['verify', orgId], env, out)).toBe(0);
    const org = await withDb((db) => accounts.findOrganization(db, orgId));
    expect(org).toMatchObject({ verified: 1, verified_at: expect.any(Number) });
    expect(await orgCommand(['verify', 'org_missing'], env, out)).toBe(1);
  });

  it('creates a realm-wide service client and prints its token once', async () => {
    lines.length = 0;
    expect(
      await serviceClientCommand(
        ['create', 'chain', 'relayer', '--scopes', 'did:issue,attest:issue'],
        env,
        out,
      ),
    ).toBe(0);
    const token = lines.find((l) => l.startsWith('token'))!.split(': ')[1]!;
    expect(token).toMatch(/^xvc_/);
    const stored = await withDb((db) => db.selectFrom('service_clients').selectAll().execute());
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: 'chain relayer', org_id: null, realm_id: 'default' });
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('disables a user: their sessions end and the revocation epoch moves; enabling undoes it', async () => {
    const { userId, epochBefore } = await withDb(async (db, database) => {
      const result = await accounts.registerAccount(database as never, {
        realmId: 'default',
        email: 'leaver@example.test',
        name: 'L',
        orgName: 'Leavers',
        passwordHash: 'x',
      });
      if (!result.ok) throw new Error('registration failed');
      const now = Date.now();
      await db
        .insertInto('sessions')
        .values({
          token_hash: 'h',
          id: 'ses_1',
          realm_id: 'default',
          user_id: result.user.id,
          amr: '["pwd"]',
          aal: 'AAL1',
          auth_time: now,
          created_at: now,
          last_seen_at: now,
          expires_at: now + 60_000,
        })
        .execute();
      const { epoch } = await db.selectFrom('access_revocations').select('epoch').executeTakeFirstOrThrow();
      return { userId: result.user.id, epochBefore: Number(epoch) };
    });
    lines.length = 0;
    expect(await userCommand(['disable', 'Leaver@example.test'], env, out)).toBe(0);
    expect(lines).toEqual(['user Leaver@example.test is disabled']);
    const after = await withDb(async (db) => ({
      user: await accounts.findUserById(db, userId),
      sessions: await db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute(),
      epoch: Number(
        (await db.selectFrom('access_revocations').select('epoch').executeTakeFirstOrThrow()).epoch,
      ),
    }));
    expect(after.user?.disabled_at).toEqual(expect.any(Number));
    expect(after.sessions).toHaveLength(0);
    expect(after.epoch).toBeGreaterThan(epochBefore);

    expect(await userCommand(['disable', 'leaver@example.test'], env, out)).toBe(0);
    expect(lines.at(-1)).toBe('user leaver@example.test was already disabled');
    expect(await userCommand(['enable', 'leaver@example.test'], env, out)).toBe(0);
    expect((await withDb((db) => accounts.findUserById(db, userId)))?.disabled_at).toBeNull();
    expect(await userCommand(['disable', 'nobody@example.test'], env, out)).toBe(1);
    expect(await userCommand(['disable', 'leaver@example.test', '--realm', 'partners'], env, out)).toBe(1);
    await expect(userCommand(['delete', 'leaver@example.test'], env, out)).rejects.toThrow(UsageError);
    await expect(userCommand(['disable'], env, out)).rejects.toThrow(UsageError);
  });
});
