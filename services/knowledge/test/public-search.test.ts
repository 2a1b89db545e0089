/**
 * Public documents and the public search of an organization's assistant, on every
 * database: anyone may search, but only the approved documents a reviewer marked
 * public, only while the organization's public assistant is on, and a reviewer
 * marks only their own organization's documents.
 */
import { setPublicAssistant } from '@xv/identity/testing';
import { describeEachDatabase } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { startKnowledge } from '../src/testing/index.js';
import { publish, sha256, startWorld, type World, withCookie, withToken } from './helpers.js';

describeEachDatabase('public documents and public search', (target) => {
  let world: World;
  let internalDoc: string;
  let publicDoc: string;
  beforeAll(async () => {
    world = await startWorld(target);
    internalDoc = await publish(
      world,
      'hr/salaries.md',
      '# Salaries\n\nZebrafish team salaries are internal.',
    );
    publicDoc = await publish(world, 'site/hours.md', '# Opening hours\n\nThe zebrafish shop opens at nine.');
  });

  const markPublic = (docId: string, visible: boolean, who = world.reviewer) =>
    withCookie(world.kb, who, `/api/documents/${docId}/visibility`, { public: visible });
  const publicSearch = (orgId: string, query: string) =>
    withToken(world.kb, undefined, '/api/public/search', { orgId, query });
  const acme = () => world.maker.session.memberships[0]!.org_id;

  it('an anonymous public search never returns an internal document, only those marked public', async () => {
    expect(await markPublic(publicDoc, true)).toEqual({
      status: 200,
      body: { ok: true, docId: publicDoc, public: true },
    });
    await setPublicAssistant(world.identity.url, world.maker.cookie, true);
    const found = await publicSearch(acme(), 'zebrafish');
    expect(found.status).toBe(200);
    expect(found.body.hits.map((h: { docId: string }) => h.docId)).toEqual([publicDoc]);
    // The organization's own search still sees both.
    const own = await withCookie(world.kb, world.member, '/api/ai/search', { query: 'zebrafish' });
    expect(new Set(own.body.hits.map((h: { docId: string }) => h.docId))).toEqual(
      new Set([publicDoc, internalDoc]),
    );
    expect((await withCookie(world.kb, world.reviewer, `/api/documents/${publicDoc}`)).body.public).toBe(
      true,
    );

    expect((await markPublic(publicDoc, false)).status).toBe(200);
    expect((await publicSearch(acme(), 'zebrafish')).body.hits).toEqual([]);
  });

  it('an organization without a public assistant, or no organization, answers the same 403', async () => {
    const globexDoc = await publish(
      world,
      'globex.md',
      '# Globex\n\nZebrafish are not for sale.',
      world.tokens.outsiderBoth,
      world.outsiderReviewer,
    );
    expect((await markPublic(globexDoc, true, world.outsiderReviewer)).status).toBe(200);
    const globex = world.outsider.session.memberships[0]!.org_id;
    const off = await publicSearch(globex, 'zebrafish');
    const unknown = await publicSearch('org_00000000000000000000000000', 'zebrafish');
    const label = await publicSearch('acme', 'zebrafish');
    for (const answer of [off, unknown, label]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ ok: false, error: 'no_public_assistant' });
    }
  });

  it("a reviewer cannot mark another organization's document public, nor a member or a visitor any", async () => {
    const foreign = await markPublic(internalDoc, true, world.outsiderReviewer);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('document_not_found');
    expect((await markPublic(internalDoc, true, world.member)).status).toBe(403);
    const anonymous = await withToken(world.kb, undefined, `/api/documents/${internalDoc}/visibility`, {
      public: true,
    });
    expect(anonymous.status).toBe(401);
    expect((await withCookie(world.kb, world.reviewer, `/api/documents/${internalDoc}`)).body.public).toBe(
      false,
    );
  });

  it("the review page's form marks a document public, and another organization's reviewer gets 404", async () => {
    const form = (who: typeof world.reviewer, value: string) =>
      world.kb.fetch(`/review/${internalDoc}/visibility`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: `public=${value}`,
      });
    expect((await form(world.outsiderReviewer, '1')).status).toBe(404);
    const page = async () =>
      (await world.kb.fetch(`/review/${internalDoc}`, { headers: { cookie: world.reviewer.cookie } })).text();
    expect(await page()).toContain('Make public');
    expect((await form(world.reviewer, '1')).status).toBe(303);
    expect((await withCookie(world.kb, world.reviewer, `/api/documents/${internalDoc}`)).body.public).toBe(
      true,
    );
    expect(await page()).toContain('Make internal');
    expect((await form(world.reviewer, '0')).status).toBe(303);
    expect((await withCookie(world.kb, world.reviewer, `/api/documents/${internalDoc}`)).body.public).toBe(
      false,
    );
  });

  it('a stranger cannot search without limit: public search is limited per address', async () => {
    const limited = await startKnowledge(await target.open('knowledge'), world.identity.url, {
      XV_KB_PUBLIC_SEARCH_PER_MINUTE: '2',
    });
    const ask = () =>
      withToken(limited, undefined, '/api/public/search', { orgId: acme(), query: 'zebrafish' });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('rate_limited');
  });

  it('only a document with an approved revision can be made public', async () => {
    const draft = await withToken(world.kb, world.tokens.sync, '/api/sync/push', {
      path: 'draft.md',
      content: 'A draft',
      hash: sha256('A draft'),
    });
    const refused = await markPublic(draft.body.docId, true);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('not_approved');
  });
});
