/**
 * The knowledge base's spec rows over HTTP, on every database: push, submit,
 * decide and search, with the hostile cases (no token, wrong scope, the maker
 * approving their own document, another organization's documents).
 */

import { describeEachDatabase } from '@xv/platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createToken,
  publish,
  search,
  sha256,
  startWorld,
  type World,
  withCookie,
  withToken,
} from './helpers.js';

describeEachDatabase('knowledge base documents', (target) => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(target);
  });

  const push = (path: string, content: string, token = world.tokens.sync, hash = sha256(content)) =>
    withToken(world.kb, token, '/api/sync/push', { path, content, hash });

  describe('POST /api/sync/push', () => {
    it('makes a draft, then answers unchanged for the same content at the same path', async () => {
      const content = '# Leave policy\n\nEmployees get 20 days of paid leave.';
      const first = await push('hr/leave.md', content);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ docId: expect.stringMatching(/^doc_/), state: 'draft', unchanged: false });
      const again = await push('hr/leave.md', content);
      expect(again.body).toEqual({ docId: first.body.docId, state: 'draft', unchanged: true });
    });

    it('accepts the sha256- prefix and rejects a hash that does not match the content', async () => {
      const content = 'Prefixed hash';
      expect(
        (await push('prefixed.md', content, world.tokens.sync, `sha256-${sha256(content)}`)).status,
      ).toBe(200);
      const wrong = await push('wrong.md', content, world.tokens.sync, sha256('something else'));
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('hash_mismatch');
      expect((await push('bad.md', content, world.tokens.sync, 'not-a-hash')).body.error).toBe(
        'hash_mismatch',
      );
    });

    it('rejects paths that climb out of the vault', async () => {
      for (const path of ['../etc/passwd.md', '/abs.md', 'a//b.md', 'C:/x.md', 'a/./b.md']) {
        const response = await push(path, 'x');
        expect(response.status, path).toBe(400);
        expect(response.body.error).toBe('invalid_path');
      }
    });

    it('needs a token with the sync scope', async () => {
      const anonymous = await push('x.md', 'x', '');
      expect(anonymous.status).toBe(401);
      const readOnly = await push('x.md', 'x', world.tokens.read);
      expect(readOnly.status).toBe(403);
      expect(readOnly.body.error).toBe('insufficient_scope');
      const forged = await push('x.md', 'x', `xkb_${'A'.repeat(43)}`);
      expect(forged.status).toBe(401);
      expect(forged.body.error).toBe('invalid_token');
    });

    it('answers bad bodies with 4xx', async () => {
      const missing = await withToken(world.kb, world.tokens.sync, '/api/sync/push', { path: 'a.md' });
      expect(missing.status).toBe(400);
      const response = await world.kb.fetch('/api/sync/push', {
        method: 'POST',
        headers: { authorization: `Bearer ${world.tokens.sync}`, 'content-type': 'application/json' },
        body: '{"path":',
      });
      expect(response.status).toBe(400);
    });
  });

  describe('POST /api/sync/submit', () => {
    it('moves a draft to under_review', async () => {
      const { body } = await push('submit/one.md', 'Submit me');
      const submitted = await withToken(world.kb, world.tokens.sync, '/api/sync/submit', {
        docId: body.docId,
      });
      expect(submitted.status).toBe(200);
      expect(submitted.body).toEqual({ ok: true, state: 'under_review' });
    });

    it('does not find unknown documents or another organization’s', async () => {
      const unknown = await withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId: 'doc_nope' });
      expect(unknown.status).toBe(404);
      const { body } = await push('submit/theirs.md', 'Acme only');
      const foreign = await withToken(world.kb, world.tokens.outsiderBoth, '/api/sync/submit', {
        docId: body.docId,
      });
      expect(foreign.status).toBe(404);
    });

    it('needs the sync scope', async () => {
      const { body } = await push('submit/scope.md', 'Scope');
      const response = await withToken(world.kb, world.tokens.read, '/api/sync/submit', {
        docId: body.docId,
      });
      expect(response.status).toBe(403);
    });
  });

  describe('POST /api/review/decide', () => {
    const underReview = async (path: string, content: string, token = world.tokens.sync) => {
      const { body } = await push(path, content, token);
      await withToken(world.kb, token, '/api/sync/submit', { docId: body.docId });
      return body.docId as string;
    };

    it('approves a document for a reviewer who is not the maker, and makes it searchable', async () => {
      const docId = await underReview(
        'finance/expenses.md',
        '# Expense claims\n\nSubmit receipts within 30 days.',
      );
      const before = await search(world, world.tokens.read, 'expense receipts deadline');
      expect(before.body.hits.map((h: { docId: string }) => h.docId)).not.toContain(docId);
      const decided = await withCookie(world.kb, world.reviewer, '/api/review/decide', {
        docId,
        decision: 'approve',
        note: 'Matches the finance handbook.',
      });
      expect(decided.status).toBe(200);
      expect(decided.body).toEqual({ ok: true, state: 'approved' });
      const after = await search(world, world.tokens.read, 'expense receipts deadline');
      expect(after.body.hits[0]).toMatchObject({
        docId,
        title: 'Expense claims',
        headingPath: 'Expense claims',
      });
    });

    it('refuses the maker approving their own document, even as an admin (403)', async () => {
      const docId = await underReview('own.md', 'Self-approval attempt');
      const decided = await withCookie(world.kb, world.maker, '/api/review/decide', {
        docId,
        decision: 'approve',
      });
      expect(decided.status).toBe(403);
      expect(decided.body.error).toBe('maker_cannot_review');
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body.state).toBe('under_review');
    });

    it('refuses a member without review:decide and a caller without a session', async () => {
      const docId = await underReview('member.md', 'Needs a reviewer');
      const byMember = await withCookie(world.kb, world.member, '/api/review/decide', {
        docId,
        decision: 'approve',
      });
      expect(byMember.status).toBe(403);
      expect(byMember.body.error).toBe('review_forbidden');
      const anonymous = await withToken(world.kb, world.tokens.both, '/api/review/decide', {
        docId,
        decision: 'approve',
      });
      expect(anonymous.status).toBe(401);
    });

    it('rejects with a note, records who decided, and lets the maker push again', async () => {
      const docId = await underReview('reject.md', 'Wrong numbers: 99 days of leave');
      const decided = await withCookie(world.kb, world.reviewer, '/api/review/decide', {
        docId,
        decision: 'reject',
        note: 'The leave figure is wrong.',
      });
      expect(decided.body).toEqual({ ok: true, state: 'rejected' });
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body.state).toBe('rejected');
      expect(detail.body.history[0]).toMatchObject({
        action: 'reject',
        actor: world.reviewer.session.user.email,
        actorId: world.reviewer.session.user.id,
        note: 'The leave figure is wrong.',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(detail.body.history.map((h: { action: string }) => h.action)).toEqual([
        'reject',
        'submit',
        'push',
      ]);
      const again = await push('reject.md', 'Correct numbers: 20 days of leave');
      expect(again.body).toEqual({ docId, state: 'draft', unchanged: false });
    });

    it('answers 409 when the document is not under review, 404 for another organization', async () => {
      const { body } = await push('draft-only.md', 'Still a draft');
      const notYet = await withCookie(world.kb, world.reviewer, '/api/review/decide', {
        docId: body.docId,
        decision: 'approve',
      });
      expect(notYet.status).toBe(409);
      const foreign = await withCookie(world.kb, world.outsider, '/api/review/decide', {
        docId: body.docId,
        decision: 'approve',
      });
      expect(foreign.status).toBe(404);
    });

    it('keeps the approved revision searchable until its successor is approved', async () => {
      const docId = await publish(
        world,
        'it/vpn.md',
        '# VPN\n\nConnect with the WireGuard client to vpn-old.acme.test.',
      );
      const changed = await push(
        'it/vpn.md',
        '# VPN\n\nConnect with the WireGuard client to vpn-new.acme.test.',
      );
      expect(changed.body).toEqual({ docId, state: 'draft', unchanged: false });
      const hitText = async () =>
        (await search(world, world.tokens.read, 'WireGuard VPN client')).body.hits[0].text;
      expect(await hitText()).toContain('vpn-old');
      await withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId });
      expect(await hitText()).toContain('vpn-old');
      await withCookie(world.kb, world.reviewer, '/api/review/decide', { docId, decision: 'approve' });
      expect(await hitText()).toContain('vpn-new');
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body).toMatchObject({ state: 'approved', revision: 2, live: { revision: 2 } });
    });
  });

  describe('GET /api/documents', () => {
    it('lists the queue for reviewers of the organization only', async () => {
      const { body } = await push('queue/item.md', 'Queued');
      await withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId: body.docId });
      const queue = await withCookie(world.kb, world.reviewer, '/api/documents?state=under_review');
      expect(queue.status).toBe(200);
      expect(queue.body.documents.map((d: { docId: string }) => d.docId)).toContain(body.docId);
      expect(queue.body.documents.every((d: { state: string }) => d.state === 'under_review')).toBe(true);
      const foreign = await withCookie(world.kb, world.outsider, '/api/documents?state=under_review');
      expect(foreign.body.documents.map((d: { docId: string }) => d.docId)).not.toContain(body.docId);
      expect((await withCookie(world.kb, world.member, '/api/documents')).status).toBe(403);
      expect((await withCookie(world.kb, world.reviewer, '/api/documents?state=bogus')).status).toBe(400);
    });
  });

  describe('POST /api/sync/retire', () => {
    it('retires a never-approved document at once and sends an approved one through review', async () => {
      const { body: draft } = await push('retire/draft.md', 'Never approved');
      const direct = await withToken(world.kb, world.tokens.sync, '/api/sync/retire', {
        path: 'retire/draft.md',
      });
      expect(direct.body).toEqual({ ok: true, docId: draft.docId, state: 'retired' });

      const docId = await publish(
        world,
        'retire/live.md',
        '# Parking\n\nThe Zeppelin garage closes at midnight.',
      );
      const requested = await withToken(world.kb, world.tokens.sync, '/api/sync/retire', {
        path: 'retire/live.md',
      });
      expect(requested.body).toEqual({ ok: true, docId, state: 'under_review' });
      const found = async () =>
        (await search(world, world.tokens.read, 'Zeppelin garage')).body.hits.some(
          (h: { docId: string }) => h.docId === docId,
        );
      expect(await found()).toBe(true);
      await withCookie(world.kb, world.reviewer, '/api/review/decide', { docId, decision: 'approve' });
      expect(await found()).toBe(false);
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body.state).toBe('retired');
      expect(
        (await withToken(world.kb, world.tokens.sync, '/api/sync/retire', { path: 'retire/live.md' })).status,
      ).toBe(409);
    });
  });

  describe('POST /api/ai/search', () => {
    it('needs ai:read or a session', async () => {
      expect((await search(world, world.tokens.sync, 'leave')).status).toBe(403);
      expect((await withToken(world.kb, undefined, '/api/ai/search', { query: 'leave' })).status).toBe(401);
      const bySession = await withCookie(world.kb, world.member, '/api/ai/search', {
        query: 'expense receipts',
      });
      expect(bySession.status).toBe(200);
      expect(bySession.body.hits.length).toBeGreaterThan(0);
    });

    it('answers hits with the spec fields (and further passages), 5 by default, 50 at most', async () => {
      for (let i = 0; i < 8; i++)
        await publish(world, `bulk/${i}.md`, `# Bulk note ${i}\n\nQuarterly budget review number ${i}.`);
      const defaults = await search(world, world.tokens.read, 'quarterly budget review');
      expect(defaults.status).toBe(200);
      expect(defaults.body.hits).toHaveLength(5);
      for (const hit of defaults.body.hits) {
        expect(Object.keys(hit).sort()).toEqual([
          'docId',
          'headingPath',
          'passages',
          'score',
          'text',
          'title',
        ]);
        expect(hit.score).toBeGreaterThan(0);
      }
      const many = await search(world, world.tokens.read, 'quarterly budget review', 50);
      expect(many.status).toBe(200);
      expect(many.body.hits.length).toBeGreaterThanOrEqual(8);
      const tooMany = await search(world, world.tokens.read, 'quarterly budget review', 500);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toMatchObject({ error: 'top_k_too_large', maximum: 50 });
      expect((await search(world, world.tokens.read, '', 3)).status).toBe(400);
      expect((await search(world, world.tokens.read, 'x', 0)).status).toBe(400);
    });

    it('never returns another organization’s documents', async () => {
      const secret = '# Merger\n\nProject Nightingale acquires Initech in the third quarter.';
      await publish(world, 'secret/merger.md', secret, world.tokens.outsiderBoth, world.outsiderReviewer);
      const theirs = await search(world, world.tokens.outsiderBoth, 'Project Nightingale acquisition');
      expect(theirs.body.hits[0].text).toContain('Nightingale');
      const ours = await search(world, world.tokens.read, 'Project Nightingale acquisition Initech');
      expect(JSON.stringify(ours.body)).not.toContain('Nightingale');
      const bySession = await withCookie(world.kb, world.reviewer, '/api/ai/search', {
        query: 'Nightingale Initech',
      });
      expect(JSON.stringify(bySession.body)).not.toContain('Nightingale');
    });

    it('only searches approved documents', async () => {
      await push('unapproved.md', '# Draft\n\nThe Flamingo discount code is secret.');
      const hits = (await search(world, world.tokens.read, 'Flamingo discount code')).body.hits;
      expect(JSON.stringify(hits)).not.toContain('Flamingo');
    });
  });

  describe('personal access tokens', () => {
    it('are shown once, listed without secrets, and stop working when revoked', async () => {
      const created = await withCookie(world.kb, world.member, '/api/tokens', {
        name: 'laptop',
        scopes: ['ai:read'],
      });
      expect(created.status).toBe(201);
      expect(created.body.token).toMatch(/^xkb_/);
      expect(created.body.scopes).toEqual(['ai:read']);
      expect((await search(world, created.body.token, 'expense')).status).toBe(200);
      const listed = await withCookie(world.kb, world.member, '/api/tokens');
      expect(JSON.stringify(listed.body)).not.toContain(created.body.token);
      const entry = listed.body.tokens.find((t: { id: string }) => t.id === created.body.id);
      expect(entry.lastUsedAt).not.toBeNull();
      // Someone else cannot revoke it.
      expect(
        (await withCookie(world.kb, world.reviewer, `/api/tokens/${created.body.id}`, undefined, 'DELETE'))
          .status,
      ).toBe(404);
      const revoked = await withCookie(
        world.kb,
        world.member,
        `/api/tokens/${created.body.id}`,
        undefined,
        'DELETE',
      );
      expect(revoked.status).toBe(200);
      expect((await search(world, created.body.token, 'expense')).status).toBe(401);
    });

    it('need a session and valid scopes', async () => {
      expect(
        (await withToken(world.kb, world.tokens.both, '/api/tokens', { name: 'x', scopes: ['sync'] })).status,
      ).toBe(401);
      expect(
        (await withCookie(world.kb, world.member, '/api/tokens', { name: 'x', scopes: ['admin'] })).status,
      ).toBe(400);
      expect(
        (await withCookie(world.kb, world.member, '/api/tokens', { name: 'x', scopes: [] })).status,
      ).toBe(400);
    });

    it('act in the organization they were created for', async () => {
      const token = await createToken(world, world.reviewer, ['sync']);
      const pushed = await withToken(world.kb, token, '/api/sync/push', {
        path: 'by-reviewer.md',
        content: 'r',
        hash: sha256('r'),
      });
      const detail = await withCookie(world.kb, world.maker, `/api/documents/${pushed.body.docId}`);
      expect(detail.status).toBe(200);
      expect(detail.body.makerId).toBe(world.reviewer.session.user.id);
    });
  });
});
