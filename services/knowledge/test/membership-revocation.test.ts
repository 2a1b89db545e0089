/**
 * Access ends with membership: a personal access token, and a session's reach into
 * an organization, end as soon as identity removes the member or disables the user,
 * with the real identity service behind them.
 */
import { accounts } from '@xv/identity';
import { addMember, createUser, type SignedIn } from '@xv/identity/testing';
import { type Database, newId } from '@xv/platform';
import { describeEachDatabase, within } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { createToken, publish, search, startWorld, type World, withCookie } from './helpers.js';

const WORD = 'quetzalcoatlus';

describeEachDatabase('access ends with membership (knowledge base)', (target) => {
  let world: World;
  let docId: string;
  let person = 0;

  /** A new plain member of Acme (who also has an organization of their own). */
  const newMember = () =>
    createUser(world.identity.url, world.maker.cookie, {
      email: `leaver-${newId('t')}-${person++}@acme.test`,
      password: 'secret-pass-9',
      name: 'Lee Leaver',
      role: 'member',
    });

  const removeFromAcme = async (who: SignedIn) => {
    const response = await world.identity.fetch(`/api/org/members/${who.session.user.id}`, {
      method: 'DELETE',
      headers: { cookie: world.maker.cookie },
    });
    expect(response.status).toBe(200);
  };

  const acmeHits = async (call: Promise<{ status: number; body: { hits?: { docId: string }[] } }>) => {
    const { status, body } = await call;
    return { status, acme: (body.hits ?? []).some((hit) => hit.docId === docId) };
  };

  beforeAll(async () => {
    world = await startWorld(target);
    docId = await publish(world, 'fossils.md', `# Fossils\n\nThe ${WORD} was a giant pterosaur.`);
  });

  it("a removed member's token is refused at once, and stays refused after they are added back", async () => {
    const leaver = await newMember();
    const token = await createToken(world, leaver, ['ai:read']);
    expect(await acmeHits(search(world, token, WORD))).toEqual({ status: 200, acme: true });

    await removeFromAcme(leaver);
    const refused = await within(
      1000,
      () => search(world, token, WORD),
      (r) => r.status !== 200,
    );
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_token');

    await addMember(world.identity.url, world.maker.cookie, leaver.session.user.email, 'member');
    expect((await search(world, token, WORD)).status).toBe(401);
  });

  it("a removed member's session no longer reaches the organization's documents", async () => {
    const leaver = await newMember();
    const before = await acmeHits(withCookie(world.kb, leaver, '/api/ai/search', { query: WORD }));
    expect(before).toEqual({ status: 200, acme: true });

    await removeFromAcme(leaver);
    // Their session now acts in their own organization only.
    const after = await within(
      1000,
      () => acmeHits(withCookie(world.kb, leaver, '/api/ai/search', { query: WORD })),
      (r) => !r.acme,
    );
    expect(after.acme).toBe(false);
  });

  it("a disabled user's token and session are refused at once", async () => {
    const user = await newMember();
    const token = await createToken(world, user, ['ai:read']);
    expect((await search(world, token, WORD)).status).toBe(200);
    expect((await withCookie(world.kb, user, '/api/ai/search', { query: WORD })).status).toBe(200);

    const identityDb = world.identity.context.database as Database;
    expect(
      await accounts.setUserDisabled(identityDb as never, 'default', user.session.user.email, true),
    ).toBe('changed');

    // Written straight into identity's database, as `xv user disable` does: identity notices the epoch.
    const byToken = await within(
      1000,
      () => search(world, token, WORD),
      (r) => r.status !== 200,
    );
    expect(byToken.status).toBe(401);
    expect(byToken.body.error).toBe('invalid_token');
    const bySession = await within(
      1000,
      () => withCookie(world.kb, user, '/api/ai/search', { query: WORD }),
      (r) => r.status !== 200,
    );
    expect(bySession.status).toBe(401);
    expect((await world.identity.fetch('/api/session', { headers: { cookie: user.cookie } })).status).toBe(
      401,
    );
  });

  it('a member whose role changes keeps their token: neither scope needs more than membership', async () => {
    const user = await newMember();
    const token = await createToken(world, user, ['ai:read']);
    const response = await world.identity.fetch(`/api/org/members/${user.session.user.id}`, {
      method: 'PATCH',
      headers: { cookie: world.maker.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'reviewer' }),
    });
    expect(response.status).toBe(200);
    expect(await acmeHits(search(world, token, WORD))).toEqual({ status: 200, acme: true });
  });
});
