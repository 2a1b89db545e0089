/**
 * Crash safety: each service takes a write-heavy load, is killed with SIGKILL in
 * the middle of it, and is started again. Every write a client saw acknowledged
 * (a 2xx received before the kill) must be there after the restart, whole, and
 * nothing may be half-written: checked through the service's API and in its
 * database (SQLite file or PostgreSQL schema). The restarted service must also
 * take new writes.
 */
import { randomBytes } from 'node:crypto';
import { createUser, signUp } from '@xv/identity/testing';
import { testDatabaseTargets } from '@xv/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUntilKilled } from './support/load-runner.js';
import { CRASH_SCENARIOS, crashModelStep, type ScenarioContext } from './support/load-scenarios.js';
import { type Platform, startPlatform } from './support/platform.js';

/** Kill once this many writes were acknowledged, or after this long (whichever comes first). */
const KILL_AFTER_ACKS = 1_000;
const KILL_AFTER_MS = 2_500;

for (const target of testDatabaseTargets()) {
  describe(`crash safety: kill -9 during writes, then restart [${target.dialect}]`, () => {
    const databaseUrl = target.dialect === 'postgres' ? process.env.XV_TEST_DATABASE_URL : undefined;
    let platform: Platform;
    let ctx: ScenarioContext;

    beforeAll(async () => {
      const orchestrationAdminToken = randomBytes(24).toString('hex');
      platform = await startPlatform({
        ...(databaseUrl ? { databaseUrl } : {}),
        env: {
          XV_TRUST_DEMO: '1',
          XV_TRUST_SEAL_PER_MINUTE: '1000000',
          XV_IDENTITY_REGISTRATIONS_PER_IP_HOUR: '1000000',
          XV_AGENT_CHAT_PER_MINUTE: '1000000',
          XV_ORCH_WF_PER_MINUTE: '1000000',
          XV_ORCH_LEAD_PER_MINUTE: '1000000',
          XV_ORCH_READ_PER_MINUTE: '1000000',
          XV_ORCH_ADMIN_TOKEN: orchestrationAdminToken,
          // A run or a turn abandoned by the kill is taken over after its lease: keep that short.
          XV_WF_LEASE_SECONDS: '2',
          XV_AGENT_LEASE_SECONDS: '2',
        },
      });
      const identity = platform.url('identity');
      const admin = await signUp(identity, {
        email: `crash-admin-${randomBytes(3).toString('hex')}@xv.test`,
        password: 'crash-admin-pw',
        name: 'Crash Admin',
        orgName: 'Crash Org',
      });
      const reviewer = await createUser(identity, admin.cookie, {
        email: `crash-reviewer-${randomBytes(3).toString('hex')}@xv.test`,
        password: 'crash-reviewer-pw',
        name: 'Crash Reviewer',
        role: 'reviewer',
      });
      const pat = await fetch(`${platform.url('knowledge')}/api/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: admin.cookie },
        body: JSON.stringify({ name: 'crash', scopes: ['sync', 'ai:read'] }),
      });
      expect(pat.status).toBe(201);
      ctx = {
        platform,
        databaseUrl,
        admin: { cookie: admin.cookie, kbToken: ((await pat.json()) as { token: string }).token },
        reviewer: { cookie: reviewer.cookie },
        chainToken: platform.env.XV_CHAIN_TOKEN!,
        orchestrationAdminToken,
      };
      platform.model.script(...Array.from({ length: 3000 }, crashModelStep));
    });

    afterAll(async () => {
      await platform?.stop();
    });

    for (const scenario of CRASH_SCENARIOS) {
      it(`${scenario.service}: every acknowledged write of a load of ${scenario.writes} survives kill -9 whole, and the restarted service takes new writes`, async () => {
        scenario.start?.();
        const startedAt = Date.now();
        const load = await runUntilKilled({
          workers: scenario.workers,
          write: (n) => scenario.write(ctx, n),
          killAfterAcks: KILL_AFTER_ACKS,
          killAfterMs: KILL_AFTER_MS,
          kill: () => platform.kill(scenario.service, 0, 'SIGKILL'),
        });
        expect(load.errors, 'writes refused before the kill').toEqual([]);
        expect(load.acknowledged.length, 'acknowledged writes').toBeGreaterThan(0);
        expect(load.inFlightAtKill, 'writes in flight when the kill came').toBeGreaterThan(0);

        await platform.restart(scenario.service, 0);
        await scenario.verify(ctx, load.acknowledged);

        // The restarted service takes new writes, which are whole too.
        const after = await scenario.write(ctx, 1_000_000);
        await scenario.verify(ctx, [after]);
        console.log(
          `${scenario.service}: ${load.acknowledged.length} ${scenario.writes} acknowledged, ` +
            `${load.inFlightAtKill} in flight at the kill, ${load.unacknowledged} cut; ` +
            `${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
        );
      }, 120_000);
    }
  });
}
