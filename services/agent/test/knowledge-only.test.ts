/**
 * No model configured, against the real identity and knowledge services: the
 * agent still answers, from the knowledge base alone. It searches as the
 * person, streams the most relevant passages as labelled quotes with links to
 * the knowledge reader, marks the search with its sources, and saves the turn.
 * The page tells an organization's admin which settings to set and anyone else
 * that answers are quotes; in the browser, the quotes and sources render as
 * block quotes and links.
 */
import { type SignedIn, startIdentity } from '@xv/identity/testing';
import { createToken, publishDocument, signUpMakerAndReviewer, startKnowledge } from '@xv/knowledge/testing';
import { openDatabase, SESSION_COOKIE } from '@xv/platform';
import { launchBrowser, recordCspViolations, tempDir } from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWLEDGE_ONLY_NOTE } from '../src/chat/knowledge-answer.js';
import { messages } from '../src/messages/index.js';
import { type Agent, newSession, startAgent } from './helpers.js';

const REFUND_POLICY = `# Refund policy

## Deadline

A customer may ask for a refund within 30 days after delivery, with the receipt.

## Exceptions

Gift cards are never refunded.
`;

const ONBOARDING = `# Onboarding guide

New staff receive a laptop on their first day and meet their mentor.
`;

describe('answers without a model', () => {
  let agent: Agent;
  let kbUrl: string;
  let maker: SignedIn;
  let reviewer: SignedIn;
  let refundDoc: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    const identity = await startIdentity(await openDatabase({ service: 'identity', dataDir: tempDir() }));
    const kb = await startKnowledge(
      await openDatabase({ service: 'knowledge', dataDir: tempDir() }),
      identity.url,
    );
    kbUrl = kb.url;
    const people = await signUpMakerAndReviewer(identity.url, Math.random().toString(36).slice(2, 8));
    ({ maker, reviewer } = people);
    const token = await createToken(kb.url, maker.cookie, ['sync'], 'vault');
    const by = { token, reviewerCookie: reviewer.cookie };
    refundDoc = await publishDocument(kb.url, by, { path: 'policies/refunds.md', content: REFUND_POLICY });
    await publishDocument(kb.url, by, { path: 'people/onboarding.md', content: ONBOARDING });
    // No MODEL_* and no XV_WORKERS_AI_* settings: no model is configured.
    agent = await startAgent(await openDatabase({ service: 'agent', dataDir: tempDir() }), {
      XV_IDENTITY_URL: identity.url,
      XV_KB_URL: kb.url,
      XV_AGENT_CHAT_PER_MINUTE: '10000',
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const ask = (cookie: string | undefined, session: string, message: string, marks = false) =>
    agent.fetch(`/api/chat?session=${session}${marks ? '&marks=1' : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ message }),
    });

  it('quotes the most relevant passages with links to the reader, and saves the turn', async () => {
    const session = newSession('quotes');
    const response = await ask(maker.cookie, session, 'How many days do customers have for a refund?');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text.startsWith(KNOWLEDGE_ONLY_NOTE)).toBe(true);
    expect(text).toContain('**Quote 1**, from [Refund policy');
    expect(text).toContain(`](${kbUrl}/library/${refundDoc})`);
    expect(text).toMatch(/^> .*within 30 days after delivery/m);

    const state = await (
      await agent.fetch(`/api/state?session=${session}`, { headers: { cookie: maker.cookie } })
    ).json();
    expect(state.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(state.messages[1]).toMatchObject({ content: text, tools: ['knowledgeBaseSearch'] });
  });

  it('marks the search with its sources for the page, before the quotes', async () => {
    const response = await ask(maker.cookie, newSession('marks'), 'refund within 30 days', true);
    const body = await response.text();
    expect(body.startsWith('\u001e')).toBe(true);
    const mark = JSON.parse(body.slice(1, body.indexOf('\n')));
    expect(mark).toMatchObject({ tool: 'knowledgeBaseSearch', ok: true });
    expect(mark.sources[0]).toEqual({ docId: refundDoc, title: 'Refund policy' });
    expect(body.slice(body.indexOf('\n') + 1).startsWith(KNOWLEDGE_ONLY_NOTE)).toBe(true);
  });

  it('says what it could not do when the conversation opens no knowledge', async () => {
    const response = await ask(undefined, newSession('none'), 'What is the refund deadline?');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(KNOWLEDGE_ONLY_NOTE);
    expect(text).toContain('The knowledge base is not available to this conversation');
  });

  it('still answers 503 ai_unavailable when a message names a model that is not configured', async () => {
    const response = await agent.fetch(`/api/chat?session=${newSession('route')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello', route: { provider: 'openai-compatible', model: 'x' } }),
    });
    expect(response.status).toBe(503);
    expect((await response.json()).error).toBe('ai_unavailable');
  });

  it("tells an organization's admin which settings to set, and others that answers are quotes", async () => {
    const pageAs = async (cookie?: string) => {
      const response = await agent.fetch('/', cookie ? { headers: { cookie } } : {});
      expect(response.status).toBe(200);
      return response.text();
    };
    const admin = await pageAs(maker.cookie);
    expect(admin).toContain('No language model is configured');
    for (const name of ['MODEL_BASE_URL', 'MODEL_API_KEY', 'MODEL_NAME', 'XV_WORKERS_AI_TOKEN'])
      expect(admin).toContain(name);
    // An expired or forged session is a visitor: still the page, never an error.
    for (const html of [
      await pageAs(reviewer.cookie),
      await pageAs(),
      await pageAs(`${SESSION_COOKIE}=forged`),
    ]) {
      expect(html).toContain('id="no-model"');
      expect(html).toContain('passages quoted from the knowledge base');
      expect(html).not.toContain('MODEL_API_KEY');
    }
  });

  it('labels the quotes and tells the admin what to set in Vietnamese, to a Vietnamese reader', async () => {
    const vietnamese = { 'accept-language': 'vi' };
    const response = await agent.fetch(`/api/chat?session=${newSession('vi')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: maker.cookie, ...vietnamese },
      body: JSON.stringify({ message: 'How many days do customers have for a refund?' }),
    });
    const text = await response.text();
    expect(text.startsWith(messages.vi['answer.knowledgeOnly'])).toBe(true);
    expect(text).toContain(`**Trích dẫn 1**, từ [Refund policy`);
    expect(text).toMatch(/^> .*within 30 days after delivery/m);
    expect(text).not.toContain('Quote');

    const admin = await (await agent.fetch('/', { headers: { cookie: maker.cookie, ...vietnamese } })).text();
    expect(admin).toContain('<html lang="vi">');
    expect(admin).toContain(`<h2 id="no-model-title">${messages.vi['chat.noModel.title']}</h2>`);
    expect(admin).toContain('MODEL_API_KEY');
    expect(admin).toContain(messages.vi['chat.who.signedInAs']);
    for (const [key, english] of Object.entries(messages.en))
      if (english.length > 12 && english !== messages.vi[key as keyof typeof messages.vi])
        expect(admin, key).not.toContain(english);
  });

  it('renders the quotes and links the sources to the knowledge reader in the browser', async () => {
    browser = await launchBrowser();
    const context = await browser.newContext();
    const token = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(maker.cookie)![1]!;
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: agent.url }]);
    const page = await context.newPage();
    const violations = await recordCspViolations(page);
    await page.goto(agent.url);
    await page.getByLabel('Your message').fill('How many days do customers have for a refund?');
    await page.getByRole('button', { name: 'Send' }).click();
    const reply = page.locator('.message.assistant').last();
    await expect.poll(() => reply.locator('.sources a').count()).toBeGreaterThan(0);
    const source = reply.locator('.sources a').first();
    expect(await source.textContent()).toBe('Refund policy');
    expect(await source.getAttribute('href')).toBe(`${kbUrl}/library/${refundDoc}`);
    expect(await source.getAttribute('rel')).toBe('noopener noreferrer');
    await expect.poll(() => reply.locator('.body blockquote').count()).toBeGreaterThan(0);
    expect(await reply.locator('.body blockquote').first().textContent()).toContain('30 days after delivery');
    expect(await reply.locator('.body strong').first().textContent()).toBe('Quote 1');
    expect(await reply.locator(`.body a[href="${kbUrl}/library/${refundDoc}"]`).count()).toBe(1);
    expect(await page.locator('#no-model h2').textContent()).toBe('No language model is configured');
    expect(violations).toEqual([]);
  });
});
