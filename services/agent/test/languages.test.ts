/**
 * The chat page, its script and the agent's own words in an answer, in English
 * and Vietnamese: chosen from `Accept-Language`, overridden by the remembered
 * `xv_lang` switch, English by default.
 */
import { openDatabase } from '@xv/platform';
import { shellMessages } from '@xv/platform/pages';
import {
  answer,
  type CspViolation,
  callTool,
  cutOff,
  describeEachDatabase,
  englishLeftIn,
  fail,
  launchBrowser,
  type ModelServer,
  recordCspViolations,
  startModelServer,
  tempDir,
} from '@xv/platform/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stepLimitNote } from '../src/chat/turn.js';
import { messages } from '../src/messages/index.js';
import { type Agent, chatRequest, MODEL_KEY, modelEnv, newSession, startAgent } from './helpers.js';

const VIETNAMESE = { 'accept-language': 'vi-VN,vi;q=0.9,en;q=0.5' };

describeEachDatabase('the agent in two languages', (target) => {
  let model: ModelServer;
  let agent: Agent;
  let withoutModel: Agent;

  beforeAll(async () => {
    model = await startModelServer({ apiKey: MODEL_KEY });
    agent = await startAgent(await target.open('agent_languages'), modelEnv(model));
    withoutModel = await startAgent(await target.open('agent_languages_bare'), {
      XV_AGENT_CHAT_PER_MINUTE: '10000',
    });
  });
  afterAll(() => model.close());
  beforeEach(() => model.reset());

  const page = async (service: Agent, headers: Record<string, string> = {}) => {
    const response = await service.fetch('/', { headers });
    expect(response.status).toBe(200);
    return response.text();
  };

  it('answers the chat page in Vietnamese to a Vietnamese browser, with nothing left in English', async () => {
    for (const service of [agent, withoutModel]) {
      const html = await page(service, VIETNAMESE);
      expect(html).toContain('<html lang="vi">');
      expect(html).toContain('<h1>Trò chuyện</h1>');
      expect(html).toContain('<label for="message">Tin nhắn của bạn</label>');
      expect(englishLeftIn(html, [messages, shellMessages])).toEqual([]);
    }
    // A visitor without a model is told so, politely, in their language.
    const notice = await page(withoutModel, VIETNAMESE);
    expect(notice).toContain(messages.vi['chat.noModel.notice']);
    expect(notice).toContain(messages.vi['chat.who.anonymous']);
  });

  it('keeps English for a reader who chose it, whatever the browser asks for, and by default', async () => {
    for (const headers of [{ ...VIETNAMESE, cookie: 'xv_lang=en' }, {}]) {
      const html = await page(withoutModel, headers);
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<h1>Chat</h1>');
      expect(html).toContain('passages quoted from the knowledge base');
    }
    // And Vietnamese for one who chose it from an English browser.
    const chosen = await page(agent, { 'accept-language': 'en-US', cookie: 'xv_lang=vi' });
    expect(chosen).toContain('<html lang="vi">');
  });

  it('writes the knowledge-only answer’s own words in the language the message was sent in', async () => {
    const ask = (headers: Record<string, string>) =>
      withoutModel.fetch(`/api/chat?session=${newSession('vi')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ message: 'Chính sách hoàn tiền là gì?' }),
      });
    const vietnamese = await (await ask(VIETNAMESE)).text();
    expect(vietnamese.startsWith(messages.vi['answer.knowledgeOnly'])).toBe(true);
    // A visitor's conversation opens no knowledge: the reason is given in Vietnamese too.
    expect(vietnamese).toContain(messages.vi['answer.search.not_available']);
    expect(vietnamese).not.toContain('knowledge base');

    const remembered = await (await ask({ ...VIETNAMESE, cookie: 'xv_lang=en' })).text();
    expect(remembered.startsWith(messages.en['answer.knowledgeOnly'])).toBe(true);
  });

  it('ends an answer cut off by the step limit with the note in the sender’s language', async () => {
    for (let i = 0; i < 5; i++)
      model.script(
        callTool('estimateAiRoi', { department: 'hr', headcount: i + 1, avgMonthlySalaryVnd: 1e7 }),
      );
    const response = await agent.fetch(`/api/chat?session=${newSession('steps')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...VIETNAMESE },
      body: JSON.stringify({ message: 'lặp mãi' }),
    });
    const text = await response.text();
    expect(text).toBe(stepLimitNote('vi'));
    expect(text).toContain('Trợ lý đã dừng sau 5 bước');
    // Without a language, the API answers in English as before.
    model.script(answer('Fine.'));
    expect(await (await chatRequest(agent, newSession(), 'hello')).text()).toBe('Fine.');
  });
});

describe('the chat page’s script in Vietnamese', () => {
  let model: ModelServer;
  let agent: Agent;
  let browser: Browser;
  let page: Page;
  let violations: CspViolation[];
  /** The language cookie is shared under the domain, which is `localhost` in tests. */
  let base: string;

  beforeAll(async () => {
    model = await startModelServer({ apiKey: MODEL_KEY });
    agent = await startAgent(await openDatabase({ service: 'agent', dataDir: tempDir() }), modelEnv(model));
    base = agent.url.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'vi-VN' });
    page = await context.newPage();
    violations = await recordCspViolations(page);
  });
  afterAll(async () => {
    await browser?.close();
    await model.close();
  });

  async function send(text: string) {
    await page.getByLabel('Tin nhắn của bạn').fill(text);
    await page.getByRole('button', { name: 'Gửi' }).click();
  }

  it('labels messages, tools, failures and notices in Vietnamese, and switches to English when asked', async () => {
    model.script(
      callTool('estimateAiRoi', { department: 'sales', headcount: 3, avgMonthlySalaryVnd: 20_000_000 }),
      answer('Nhóm bán hàng tiết kiệm khoảng 12 triệu đồng mỗi tháng.', { delayMs: 5 }),
    );
    await page.goto(`${base}/`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('vi');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Trò chuyện');
    await send('AI giúp nhóm bán hàng tiết kiệm được bao nhiêu?');
    const reply = page.locator('.message.assistant').last();
    await expect.poll(() => reply.getAttribute('aria-busy')).toBeNull();
    expect(await page.locator('.message.user .who').textContent()).toBe('Bạn');
    expect(await reply.locator('.who').textContent()).toBe('Trợ lý');
    expect(await reply.locator('.tool').textContent()).toBe('🔧 Đã ước tính lợi tức đầu tư (ROI) của AI');
    expect(await reply.locator('.tools').getAttribute('aria-label')).toBe('Công cụ đã dùng');
    expect(await reply.locator('.sources').getAttribute('aria-label')).toBe('Nguồn');

    // A refusal by its error code, in the page's language.
    model.script(fail(500, 'upstream exploded'));
    await send('xin chào');
    const refused = page.locator('.message.assistant').last();
    await expect.poll(() => refused.getAttribute('class')).toContain('error');
    expect(await refused.locator('.body').textContent()).toBe(messages.vi['chat.error.model_failed']);

    // An answer that breaks off keeps what came and says, in Vietnamese, that nothing was saved.
    model.script(cutOff('Câu trả lời đầu tiên'));
    await send('kể tiếp');
    const broken = page.locator('.message.assistant').last();
    await expect.poll(() => broken.locator('.failure').count()).toBe(1);
    expect(await broken.locator('.failure').textContent()).toBe(messages.vi['chat.answerStopped']);
    expect(await broken.locator('.body').textContent()).toContain('Câu trả lời đầu tiên');
    expect(await broken.locator('.body').textContent()).not.toContain('[agent error]');

    await page.getByRole('button', { name: 'Cuộc trò chuyện mới' }).click();
    await expect(page.locator('#status').textContent()).resolves.toBe(messages.vi['chat.started']);

    // The switch is remembered: the page and its script speak English from now on.
    await page.getByRole('link', { name: 'English' }).click();
    await page.waitForURL(`${base}/`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Chat');
    model.script(answer('Hello.'));
    await page.getByLabel('Your message').fill('hello');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.message.assistant .who').last().textContent()).toBe('Agent');
    expect(violations).toEqual([]);
  });
});
