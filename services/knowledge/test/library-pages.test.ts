/**
 * The pages for the organization's people: the knowledge home, the search page,
 * the reader and the author's view. Each reads only the caller's organization,
 * renders hostile Markdown as text, and names states in words.
 */
import { describeEachDatabase } from '@xv/platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { publish, sha256, startWorld, type World, withCookie, withToken } from './helpers.js';

const HOSTILE = `---
title: Travel policy
owner: <script>window.__xss = 1</script>
tags:
  - travel
  - money
---
# Travel policy

<script>window.__xss = 'script'</script>

<img src="x" onerror="window.__xss = 'img'">

[a link](javascript:window.__xss='md-link')

Trains are booked in **second class**.
`;

async function page(world: World, who: World['maker'] | undefined, path: string, headers = {}) {
  const response = await world.kb.fetch(path, {
    redirect: 'manual',
    headers: { ...(who ? { cookie: who.cookie } : {}), ...headers },
  });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') };
}

describeEachDatabase('knowledge pages for members', (target) => {
  let world: World;
  let travelId: string;
  let globexId: string;

  beforeAll(async () => {
    world = await startWorld(target);
    travelId = await publish(world, 'policies/travel.md', HOSTILE);
    globexId = await publish(
      world,
      'secret.md',
      '# Globex merger\n\nThe merger with Initech closes in March.',
      world.tokens.outsiderBoth,
      world.outsiderReviewer,
    );
  });

  describe('the reader', () => {
    it('answers 404 for a document of another organization, and for an unknown id', async () => {
      const across = await page(world, world.member, `/library/${globexId}`);
      expect(across.status).toBe(404);
      expect(across.html).not.toContain('Initech');
      expect(across.html).not.toContain('Globex merger');
      expect((await page(world, world.member, '/library/doc_unknown')).status).toBe(404);
      const own = await page(world, world.outsider, `/library/${globexId}`);
      expect(own.status).toBe(200);
      expect(own.html).toContain('Initech');
    });

    it('sends a visitor without a session to sign in', async () => {
      const response = await page(world, undefined, `/library/${travelId}`);
      expect(response.status).toBe(302);
      const location = new URL(response.location!);
      expect(location.pathname).toBe('/login');
      expect(location.searchParams.get('redirect')).toBe(`${world.kb.url}/library/${travelId}`);
    });

    it('shows front matter as a table and the state in words', async () => {
      const { status, html } = await page(world, world.member, `/library/${travelId}`);
      expect(status).toBe(200);
      expect(html).toMatch(/<table class="front-matter"[^>]*>/);
      expect(html).toMatch(/<th[^>]*>owner<\/th>/);
      expect(html).toContain('travel, money');
      expect(html).toContain('Approved');
      expect(html).not.toContain('under_review');
      // No rule and heading made out of the front matter.
      expect(html).not.toContain('<hr>');
      expect(html).toContain('<strong>second class</strong>');
    });

    it('escapes hostile Markdown and HTML', async () => {
      const { html } = await page(world, world.member, `/library/${travelId}`);
      expect(html).not.toMatch(/<script>window/);
      expect(html).not.toMatch(/<img[^>]*onerror/);
      expect(html).not.toContain('href="javascript:');
      expect(html).toContain('&lt;script&gt;window.__xss = 1&lt;/script&gt;');
    });

    it('labels a document with a newer revision waiting for review', async () => {
      const content = `${HOSTILE}\nA second paragraph.`;
      await withToken(world.kb, world.tokens.sync, '/api/sync/push', {
        path: 'policies/travel.md',
        content,
        hash: sha256(content),
      });
      await withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId: travelId });
      const { html } = await page(world, world.member, `/library/${travelId}`);
      expect(html).toContain('Waiting for review');
      expect(html).not.toContain('A second paragraph.'); // the reader shows the approved revision
    });
  });

  describe('the home page', () => {
    it('lists the approved documents with the date in the page’s language', async () => {
      const { status, html } = await page(world, world.member, '/', { 'accept-language': 'vi-VN,vi;q=0.9' });
      expect(status).toBe(200);
      expect(html).toContain(`href="/library/${travelId}"`);
      expect(html).toContain('policies/travel.md');
      expect(html).not.toContain('Globex merger');
      expect(html).toMatch(
        /<time datetime="\d{4}-\d\d-\d\dT[^"]+" data-style="date">\d{1,2} thg \d{1,2}, \d{4}<\/time>/,
      );
      expect(html).toContain('<form method="get" action="/library"');
      // A language XV does not speak gets English, dates included.
      const german = await page(world, world.member, '/', { 'accept-language': 'de-DE,de;q=0.9' });
      expect(german.html).toContain('<html lang="en">');
      expect(german.html).toMatch(/data-style="date">[A-Z][a-z]{2} \d{1,2}, \d{4}<\/time>/);
    });

    it('pages the list', async () => {
      const { status, html } = await page(world, world.member, '/?page=2');
      expect(status).toBe(200);
      expect(html).not.toContain(`href="/library/${travelId}"`);
      expect((await page(world, world.member, '/?page=zero')).status).toBe(400);
    });
  });

  describe('the search page', () => {
    it('finds an approved document and highlights the words, escaped', async () => {
      const { status, html } = await page(world, world.member, '/library?q=trains%20second');
      expect(status).toBe(200);
      expect(html).toContain(`href="/library/${travelId}"`);
      expect(html).toMatch(/<mark>Trains<\/mark>/);
      expect(html).toMatch(/<mark>second<\/mark>/);
    });

    it('never shows another organization’s document', async () => {
      const { html } = await page(world, world.member, '/library?q=merger%20Initech');
      expect(html).not.toContain('closes in March');
      expect(html).not.toContain(globexId);
      const theirs = await page(world, world.outsider, '/library?q=merger%20Initech');
      expect(theirs.html).toContain(`href="/library/${globexId}"`);
      expect(theirs.html).not.toContain(travelId);
    });

    it('escapes the query it shows back', async () => {
      const { html } = await page(world, world.member, '/library?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
      expect(html).not.toContain('<script>alert(1)');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    });

    it('refuses an over-long query with 400', async () => {
      expect((await page(world, world.member, `/library?q=${'a'.repeat(2100)}`)).status).toBe(400);
    });
  });

  describe('the author view', () => {
    let rejectedId: string;

    beforeAll(async () => {
      const content = '# Expenses\n\nReceipts within a week.';
      const pushed = await withToken(world.kb, world.tokens.sync, '/api/sync/push', {
        path: 'expenses.md',
        content,
        hash: sha256(content),
      });
      rejectedId = pushed.body.docId;
      await withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId: rejectedId });
      await withCookie(world.kb, world.reviewer, '/api/review/decide', {
        docId: rejectedId,
        decision: 'reject',
        note: 'Say <b>which</b> week.',
      });
      const own = '# Reviewer notes\n\nMine alone.';
      await withToken(world.kb, world.tokens.reviewerSync, '/api/sync/push', {
        path: 'reviewer.md',
        content: own,
        hash: sha256(own),
      });
    });

    it('lists only the caller’s documents with labels and the reviewer’s note', async () => {
      const { status, html } = await page(world, world.maker, '/mine');
      expect(status).toBe(200);
      expect(html).toContain('expenses.md');
      expect(html).toContain('Rejected');
      expect(html).toContain('Say &lt;b&gt;which&lt;/b&gt; week.');
      expect(html).toContain('policies/travel.md');
      expect(html).toContain('Waiting for review');
      expect(html).not.toContain('reviewer.md');
      expect(html).not.toContain('secret.md');
      expect(html).not.toMatch(/under_review|>rejected</);
      const theirs = await page(world, world.reviewer, '/mine');
      expect(theirs.html).toContain('reviewer.md');
      expect(theirs.html).toContain('Draft');
      expect(theirs.html).not.toContain('expenses.md');
    });

    it('shows the diff the reviewer saw, for the author only', async () => {
      const { status, html } = await page(world, world.maker, `/mine/${travelId}`);
      expect(status).toBe(200);
      expect(html).toContain('<ins>');
      expect(html).toContain('A second paragraph.');
      expect((await page(world, world.reviewer, `/mine/${travelId}`)).status).toBe(404);
      expect((await page(world, world.outsider, `/mine/${travelId}`)).status).toBe(404);
    });
  });
});
