/**
 * A review decision names the revision (content hash) the reviewer saw. The maker
 * changing the document after the reviewer opened it must never have the
 * approval publish the new text: the decision is refused with 409
 * `revision_changed`, the reviewer page shows what changed, and the audit trail
 * keeps the hash that was approved or rejected. Over HTTP, on every database.
 */
import { describeEachDatabase } from '@xv/platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { search, sha256, startWorld, type World, withCookie, withToken } from './helpers.js';

describeEachDatabase('review decisions name their revision', (target) => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(target);
  });

  const push = (path: string, content: string) =>
    withToken(world.kb, world.tokens.sync, '/api/sync/push', { path, content, hash: sha256(content) });
  const submit = (docId: string) => withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId });
  const decide = (body: Record<string, unknown>) =>
    withCookie(world.kb, world.reviewer, '/api/review/decide', body);
  const found = async (word: string, docId: string) =>
    (await search(world, world.tokens.read, word)).body.hits.some(
      (h: { docId: string; text: string }) => h.docId === docId && h.text.includes(word),
    );

  /** The maker pushes and submits `content`; returns the docId. */
  async function underReview(path: string, content: string): Promise<string> {
    const { body } = await push(path, content);
    expect((await submit(body.docId)).status).toBe(200);
    return body.docId;
  }

  describe('POST /api/review/decide', () => {
    it('approving the revision the reviewer saw after the maker pushed and submitted another is refused with 409 and publishes nothing', async () => {
      const seen = '# Refunds\n\nRefunds are paid within 14 days.';
      const docId = await underReview('race/refunds.md', seen);
      const opened = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(opened.body.hash).toBe(sha256(seen));

      const swapped = '# Refunds\n\nRefunds go to account Kestrelbank 999 instead.';
      await push('race/refunds.md', swapped);
      await submit(docId);

      const decided = await decide({ docId, decision: 'approve', revision: sha256(seen) });
      expect(decided.status).toBe(409);
      expect(decided.body).toMatchObject({ ok: false, error: 'revision_changed', revision: sha256(swapped) });
      expect(await found('Kestrelbank', docId)).toBe(false);
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body).toMatchObject({ state: 'under_review', live: null });
    });

    it('an approval without a revision decides on what was submitted for review, so a change since is refused', async () => {
      const docId = await underReview('race/travel.md', '# Travel\n\nBook economy class.');
      const swapped = '# Travel\n\nBook Zanzibarfirst class for everyone.';
      await push('race/travel.md', swapped);
      await submit(docId);

      const implicit = await decide({ docId, decision: 'approve' });
      expect(implicit.status).toBe(409);
      expect(implicit.body).toMatchObject({ error: 'revision_changed', revision: sha256(swapped) });
      expect(await found('Zanzibarfirst', docId)).toBe(false);

      // Naming the new revision explicitly is the reviewer saying "I read this one".
      const explicit = await decide({ docId, decision: 'approve', revision: sha256(swapped) });
      expect(explicit.status).toBe(200);
      expect(explicit.body).toEqual({ ok: true, state: 'approved' });
      expect(await found('Zanzibarfirst', docId)).toBe(true);
    });

    it('approving the revision the reviewer saw after the maker pushed a new draft answers revision_changed', async () => {
      const seen = '# Holidays\n\nThe office closes on 24 December.';
      const docId = await underReview('race/holidays.md', seen);
      const draft = '# Holidays\n\nThe office closes all of December.';
      await push('race/holidays.md', draft);
      const decided = await decide({ docId, decision: 'approve', revision: sha256(seen) });
      expect(decided.status).toBe(409);
      expect(decided.body).toMatchObject({ error: 'revision_changed', revision: sha256(draft) });
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body).toMatchObject({ state: 'draft', live: null });
    });

    it('a rejection of a revision the reviewer did not see is refused too', async () => {
      const seen = '# Desk booking\n\nBook desks a day ahead.';
      const docId = await underReview('race/desks.md', seen);
      await push('race/desks.md', '# Desk booking\n\nBook desks a week ahead.');
      await submit(docId);
      const decided = await decide({ docId, decision: 'reject', revision: sha256(seen) });
      expect(decided.status).toBe(409);
      expect(decided.body.error).toBe('revision_changed');
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body.state).toBe('under_review');
    });

    it('approving with the current revision publishes it and the audit trail records the approved hash', async () => {
      const content = '# Parking\n\nThe Quillfeather garage opens at six.';
      const docId = await underReview('race/parking.md', content);
      const decided = await decide({ docId, decision: 'approve', revision: `sha256-${sha256(content)}` });
      expect(decided.body).toEqual({ ok: true, state: 'approved' });
      expect(await found('Quillfeather', docId)).toBe(true);
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body.history[0]).toMatchObject({ action: 'approve', hash: sha256(content) });
    });

    it('the audit trail records the rejected hash', async () => {
      const content = '# Lunch\n\nLunch is free on Fridays.';
      const docId = await underReview('race/lunch.md', content);
      expect((await decide({ docId, decision: 'reject', note: 'No.' })).body.state).toBe('rejected');
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body.history[0]).toMatchObject({ action: 'reject', hash: sha256(content), note: 'No.' });
    });

    it('a revision that is not a SHA-256 content hash is a 400, not a decision', async () => {
      const docId = await underReview('race/bad.md', '# Bad\n\nText.');
      const decided = await decide({ docId, decision: 'approve', revision: 'latest' });
      expect(decided.status).toBe(400);
      expect(decided.body.error).toBe('invalid_revision');
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body.state).toBe('under_review');
    });

    it('a retirement under review is decided on as the hash of the empty text it leaves', async () => {
      const content = '# Canteen\n\nThe Brambleworth canteen serves soup.';
      const docId = await underReview('race/canteen.md', content);
      expect((await decide({ docId, decision: 'approve' })).status).toBe(200);
      await withToken(world.kb, world.tokens.sync, '/api/sync/retire', { path: 'race/canteen.md' });
      const pending = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(pending.body).toMatchObject({ kind: 'retirement', hash: sha256('') });
      const stale = await decide({ docId, decision: 'approve', revision: sha256(content) });
      expect(stale.status).toBe(409);
      expect(await found('Brambleworth', docId)).toBe(true);
      const decided = await decide({ docId, decision: 'approve', revision: sha256('') });
      expect(decided.body).toEqual({ ok: true, state: 'retired' });
      expect(await found('Brambleworth', docId)).toBe(false);
    });
  });

  describe('the reviewer page', () => {
    const hiddenRevision = (html: string) => /name="revision" value="([^"]*)"/.exec(html)?.[1];
    const page = (path: string, init: RequestInit = {}) =>
      world.kb.fetch(path, { ...init, headers: { cookie: world.reviewer.cookie, ...init.headers } });

    it('an approval posted from a page showing an older revision is refused with 409 and the page shows the new diff', async () => {
      const seen = '# Expenses\n\nReceipts go to finance.\nKeep them a year.';
      const docId = await underReview('race/expenses.md', seen);
      const opened = await (await page(`/review/${docId}`)).text();
      expect(hiddenRevision(opened)).toBe(sha256(seen));

      const swapped = '# Expenses\n\nReceipts go to finance.\nSend them to Gorsemoor Ltd.';
      await push('race/expenses.md', swapped);
      await submit(docId);

      const response = await page(`/review/${docId}/decide`, {
        method: 'POST',
        headers: { origin: world.kb.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ decision: 'approve', note: 'ok', revision: hiddenRevision(opened)! }),
      });
      expect(response.status).toBe(409);
      const html = await response.text();
      const changed = /<div class="diff" id="changed-since">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
      expect(changed).toContain('<del>Keep them a year.');
      expect(changed).toContain('<ins>Send them to Gorsemoor Ltd.');
      // The form now names the revision the page shows, so the reviewer decides on what they read.
      expect(hiddenRevision(html)).toBe(sha256(swapped));
      expect(await found('Gorsemoor', docId)).toBe(false);
      const detail = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}`);
      expect(detail.body.state).toBe('under_review');
    });

    it('approves through the form the revision the page showed', async () => {
      const content = '# Badges\n\nLost Thistlewick badges are replaced at reception.';
      const docId = await underReview('race/badges.md', content);
      const opened = await (await page(`/review/${docId}`)).text();
      const response = await page(`/review/${docId}/decide`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: world.kb.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ decision: 'approve', revision: hiddenRevision(opened)! }),
      });
      expect(response.status).toBe(303);
      expect(await found('Thistlewick', docId)).toBe(true);
      const history = await (await page(`/review/${docId}`)).text();
      expect(history).toContain(sha256(content).slice(0, 12));
    });
  });
});
