/**
 * Sessions and tickets stored before owners existed: the migration gives them no
 * owner, so a caller without cookies still reaches them by id alone, and a
 * browser with an owner cookie naming the same id does not.
 */
import { migrate } from '@xv/platform';
import { describeEachDatabase, startModelServer } from '@xv/platform/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { sessions } from '../src/migrations/0001_sessions.js';
import { migrations } from '../src/migrations/index.js';
import { MODEL_KEY, modelEnv, startAgent } from './helpers.js';

describeEachDatabase('sessions from before owners', (target) => {
  it('an old session and its tickets stay with their id alone, and an owner cookie does not reach them', async () => {
    const database = await target.open('agent');
    await migrate(database, { '0001_sessions': sessions });
    const now = Date.now();
    const db = database.kysely;
    await sql`insert into agent_sessions (id, tenant, system_prompt, created_at, updated_at) values ('old-1', 'acme', 'Old prompt', ${now}, ${now})`.execute(
      db,
    );
    await sql`insert into agent_messages (id, session_id, seq, role, content, ts) values ('msg_a', 'old-1', 1, 'user', 'old question', ${now})`.execute(
      db,
    );
    await sql`insert into agent_tickets (id, tenant, session_id, title, priority, details, created_at) values ('tkt_old', 'acme', 'old-1', 'Old ticket', 'normal', '', ${now})`.execute(
      db,
    );
    await migrate(database, migrations);

    const model = await startModelServer({ apiKey: MODEL_KEY });
    const agent = await startAgent(database, modelEnv(model));
    try {
      const bare = await (await agent.fetch('/api/state?session=old-1')).json();
      expect(bare).toMatchObject({ tenant: 'acme', systemPrompt: 'Old prompt', messageCount: 1 });
      const tickets = await (await agent.fetch('/api/tickets?session=old-1')).json();
      expect(tickets.tickets.map((t: { id: string }) => t.id)).toEqual(['tkt_old']);

      const cookie = `xv_agent_owner=${'a'.repeat(43)}`;
      const owned = await (await agent.fetch('/api/state?session=old-1', { headers: { cookie } })).json();
      expect(owned.messageCount).toBe(0);
      const ownedTickets = await (
        await agent.fetch('/api/tickets?session=old-1', { headers: { cookie } })
      ).json();
      expect(ownedTickets.tickets).toEqual([]);
    } finally {
      await model.close();
    }
  });
});
