/**
 * @module e2e/support/walkthrough-content
 * The walk-through's content items: knowledge for people (reader, search, the
 * author's view), the chat, and the verify page, done on the pages. Documents
 * arrive as the desktop client sends them (the sync API with a token made on the
 * token page); everything after that is clicks.
 */
import { createHash } from 'node:crypto';
import { answer, callTool, reply } from '@xv/platform/testing';
import { expect } from 'vitest';
import { approve, createAccessToken, definition, reviewQueue } from './journey-pages.js';
import { waitFor } from './platform.js';
import type { Walk } from './walkthrough-walk.js';

const LEAVE_POLICY = `---
title: Chính sách nghỉ phép
owner: Phòng Nhân sự
effective: 2026-01-01
---
# Chính sách nghỉ phép

Mỗi nhân viên của Lotus Logistics có **mười hai ngày** nghỉ phép năm có lương.

- Ngày chưa dùng được chuyển sang quý một năm sau.
- Xin nghỉ trước ít nhất ba ngày làm việc.
`;

const EXPENSES = `# Travel expenses

Taxis are reimbursed with a receipt.
`;

/** What the walk learned about the documents, for the chat and verify items. */
const found = { leaveDocId: '', expensesDocId: '' };

async function push(walk: Walk, token: string, path: string, content: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const hash = createHash('sha256').update(content, 'utf8').digest('hex');
  const pushed = await fetch(walk.url('knowledge', '/api/sync/push'), {
    method: 'POST',
    headers,
    body: JSON.stringify({ path, content, hash }),
  });
  expect(pushed.status, await pushed.clone().text()).toBe(200);
  const { docId } = (await pushed.json()) as { docId: string };
  const submitted = await fetch(walk.url('knowledge', '/api/sync/submit'), {
    method: 'POST',
    headers,
    body: JSON.stringify({ docId }),
  });
  expect(submitted.status).toBe(200);
  return docId;
}

export async function walkKnowledge(walk: Walk) {
  const page = walk.adaPage;
  const bea = walk.bea?.page;
  if (!bea) throw new Error('Bea joins by invitation first.');
  const token = await createAccessToken(page, walk.url('knowledge'), 'Desktop vault', ['sync']);
  await walk.seen(page, 'knowledge-tokens');
  found.leaveDocId = await push(walk, token, 'Chinh-sach/nghi-phep.md', LEAVE_POLICY);
  found.expensesDocId = await push(walk, token, 'Policies/expenses.md', EXPENSES);

  // Bea reviews: the queue, one approval, one rejection with a note for the author.
  const queue = await reviewQueue(bea, walk.url('knowledge'));
  expect(queue.map((d) => d.docId).sort()).toEqual([found.leaveDocId, found.expensesDocId].sort());
  await walk.seen(bea, 'knowledge-review-queue');
  expect(
    await approve(bea, walk.url('knowledge'), found.leaveDocId, 'Matches the HR handbook.', () =>
      walk.seen(bea, 'knowledge-review-document'),
    ),
  ).toBe('approved');
  await bea.goto(walk.url('knowledge', `/review/${found.expensesDocId}`));
  await bea.getByLabel('Note for the audit trail').fill('Add the limit for taxis, please.');
  await bea.getByRole('button', { name: 'Reject', exact: true }).click();
  await bea.waitForURL(walk.url('knowledge', `/review/${found.expensesDocId}`));
  expect(await bea.locator('.state').textContent()).toBe('Rejected');

  // Ada's own documents: states as labels, the reviewer's note, and the diff the reviewer saw.
  await page.goto(walk.url('knowledge', '/mine'));
  const rows = page.locator('#mine tbody tr');
  expect(await rows.filter({ hasText: 'Chính sách nghỉ phép' }).locator('.state').textContent()).toBe(
    'Approved',
  );
  const rejected = rows.filter({ hasText: 'Travel expenses' });
  expect(await rejected.locator('.state').textContent()).toBe('Rejected');
  expect(await rejected.textContent()).toContain('Add the limit for taxis, please.');
  await walk.seen(page, 'knowledge-mine');
  await rejected.getByRole('link', { name: 'Travel expenses' }).click();
  expect(await page.locator('#rejection').textContent()).toContain('Add the limit for taxis, please.');
  expect(await page.locator('#diff').textContent()).toContain('Taxis are reimbursed with a receipt.');
  await walk.seen(page, 'knowledge-mine-rejected');

  // The reader: rendered Markdown, the front matter as a small table, not as a rule and a heading.
  await page.goto(walk.url('knowledge', '/'));
  await page.getByRole('link', { name: 'Chính sách nghỉ phép' }).first().click();
  await page.waitForURL(walk.url('knowledge', `/library/${found.leaveDocId}`));
  const frontMatter = page.locator('#front-matter');
  expect(await frontMatter.textContent()).toContain('Phòng Nhân sự');
  const rendered = page.locator('#rendered');
  expect(await rendered.locator('strong').first().textContent()).toBe('mười hai ngày');
  expect(await rendered.locator('li').count()).toBe(2);
  expect(await rendered.locator('hr').count()).toBe(0);
  expect(await rendered.textContent()).not.toContain('owner:');
  await walk.seen(page, 'knowledge-reader');

  // Search as a person types it: Vietnamese without its diacritics still finds the policy.
  await page.goto(walk.url('knowledge', '/'));
  await page.getByLabel('Search the knowledge base').fill('nghi phep nam');
  await page.getByRole('button', { name: 'Search' }).click();
  const hits = page.locator('#hits > li');
  await hits.first().waitFor();
  expect(await hits.first().textContent()).toContain('Chính sách nghỉ phép');
  await walk.seen(page, 'knowledge-search');
}

export async function walkChat(walk: Walk) {
  const page = walk.adaPage;
  const { model } = walk.platform;
  model.reset();
  model.script(
    callTool('knowledgeBaseSearch', { query: 'nghỉ phép năm' }),
    reply(() =>
      answer(
        'Theo **Chính sách nghỉ phép**:\n\n- mười hai ngày nghỉ phép năm có lương\n- xin nghỉ trước ba ngày làm việc',
      ),
    ),
  );
  await page.goto(walk.url('agent'));
  await page.getByLabel('Your message').fill('Nhân viên có bao nhiêu ngày nghỉ phép năm?');
  await page.getByRole('button', { name: 'Send' }).click();
  const message = page.locator('.message.assistant').last();
  await message.waitFor();
  await page.waitForFunction(() => !document.querySelector('.message.assistant[aria-busy]'), undefined, {
    timeout: 60_000,
  });
  // Rendered, not raw: the bold and the list are elements, no asterisks left.
  const body = message.locator('.body');
  expect(await body.locator('strong').textContent()).toBe('Chính sách nghỉ phép');
  expect(await body.locator('li').count()).toBe(2);
  expect(await body.textContent()).not.toContain('**');
  // The cited document links to its reader page.
  const source = message.getByRole('list', { name: 'Sources' }).getByRole('link').first();
  expect(await source.getAttribute('href')).toBe(walk.url('knowledge', `/library/${found.leaveDocId}`));
  await walk.seen(page, 'assistant-answer');

  // Without a model: the admin reads how to set one up, Bea a polite notice, and answers quote the knowledge base.
  await walk.platform.restart('agent', 0, { MODEL_BASE_URL: '', MODEL_API_KEY: '', MODEL_NAME: '' });
  await page.goto(walk.url('agent'));
  await page.getByRole('heading', { name: 'No language model is configured' }).waitFor();
  expect(await page.locator('#no-model').textContent()).toContain('MODEL_BASE_URL');
  await walk.seen(page, 'assistant-no-model-admin');
  const bea = walk.bea?.page;
  if (!bea) throw new Error('Bea joins by invitation first.');
  await bea.goto(walk.url('agent'));
  const notice = bea.locator('#no-model');
  expect(await notice.textContent()).toContain('not connected to a language model yet');
  expect(await notice.textContent()).not.toContain('MODEL_BASE_URL');
  await bea.getByLabel('Your message').fill('nghỉ phép năm');
  await bea.getByRole('button', { name: 'Send' }).click();
  const quoted = bea.locator('.message.assistant').last();
  await quoted.waitFor();
  await bea.waitForFunction(() => !document.querySelector('.message.assistant[aria-busy]'), undefined, {
    timeout: 30_000,
  });
  const quotedBody = quoted.locator('.body');
  expect(await quotedBody.textContent()).toContain('No language model is configured yet');
  expect(await quotedBody.locator('strong').first().textContent()).toBe('Quote 1');
  expect(await quotedBody.textContent()).toContain('mười hai ngày');
  expect(
    await quotedBody.locator(`a[href="${walk.url('knowledge', `/library/${found.leaveDocId}`)}"]`).count(),
  ).toBeGreaterThan(0);
  await walk.seen(bea, 'assistant-knowledge-only');
}

export async function walkVerify(walk: Walk) {
  const page = walk.adaPage;
  const output = 'Mỗi nhân viên có mười hai ngày nghỉ phép năm có lương.';
  const sealed = await page.context().request.post(walk.url('trust', '/api/seal'), {
    data: { modelId: 'scripted', output, input: { question: 'nghỉ phép' }, anchorNow: true },
    timeout: 30_000,
  });
  expect(sealed.status(), await sealed.text()).toBe(200);
  const receipt = (await sealed.json()) as { receiptId: string; anchor: { txHash: string } };

  const stranger = await walk.person();
  await stranger.goto(walk.url('trust', `/verify/${receipt.receiptId}`));
  await waitFor(
    async () => {
      if ((await definition(stranger, 'On chain').textContent())?.startsWith('Yes')) return true;
      await stranger.reload();
      return false;
    },
    'the anchor to be confirmed on the verify page',
    30_000,
  );
  // The issuer by name, with its DID.
  expect(await definition(stranger, 'Organization').textContent()).toBe(walk.ada.orgName);
  expect(await definition(stranger, 'DID').textContent()).toMatch(/^did:/);

  // The original content, pasted, matches the sealed hash; a changed one does not.
  const check = async (text: string) => {
    await stranger.getByLabel('Paste the content').fill(text);
    await stranger.locator('#content-check').click();
    const result = stranger.locator('#content-result');
    await expect.poll(async () => (await result.textContent()) ?? '').toMatch(/^[✔✘]/);
    return (await result.textContent()) ?? '';
  };
  expect(await check(output)).toMatch(/^✔ The pasted text matches the sealed content/);
  await walk.seen(stranger, 'verify-content-matches');
  expect(await check(`${output} (sửa)`)).toMatch(/^✘ The pasted text does not match/);
  await walk.seen(stranger, 'verify-content-differs');

  // The transaction's page says what was anchored and when.
  const transaction = definition(stranger, 'Transaction');
  expect(await transaction.textContent()).toBe(receipt.anchor.txHash);
  await transaction.getByRole('link').click();
  await stranger.waitForURL(`**/tx/${receipt.anchor.txHash}`);
  const content = (await stranger.locator('main').textContent()) ?? '';
  expect(content).toContain(receipt.anchor.txHash);
  expect(content).toMatch(/anchor/i);
  await walk.seen(stranger, 'chain-transaction');
}
