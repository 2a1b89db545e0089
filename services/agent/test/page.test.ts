import { openDatabase } from '@xv/platform';
import {
  answer,
  type CspViolation,
  callTool,
  launchBrowser,
  type ModelServer,
  recordCspViolations,
  startModelServer,
  tempDir,
} from '@xv/platform/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Agent, MODEL_KEY, modelEnv, startAgent } from './helpers.js';

describe('the chat page', () => {
  let model: ModelServer;
  let agent: Agent;
  let browser: Browser;
  let page: Page;
  let violations: CspViolation[];

  beforeAll(async () => {
    model = await startModelServer({ apiKey: MODEL_KEY });
    agent = await startAgent(await openDatabase({ service: 'agent', dataDir: tempDir() }), modelEnv(model));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await model.close();
  });
  beforeEach(async () => {
    model.reset();
    page = await browser.newPage();
    violations = await recordCspViolations(page);
  });
  afterEach(() => {
    // The page's own scripts all run under the policy: none is refused.
    expect(violations).toEqual([]);
  });

  async function send(text: string) {
    await page.getByLabel('Your message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('streams an answer, marks the tool used, and keeps the conversation across a reload', async () => {
    model.script(
      callTool('estimateAiRoi', { department: 'sales', headcount: 3, avgMonthlySalaryVnd: 20_000_000 }),
      answer('Sales would save about 12 million VND a month.', { delayMs: 10 }),
    );
    await page.goto(agent.url);
    await send('What would AI save our sales team?');
    const reply = page.locator('.message.assistant').last();
    await expect
      .poll(async () => (await reply.locator('.body').textContent())?.trim())
      .toBe('Sales would save about 12 million VND a month.');
    expect(await reply.locator('.tool').textContent()).toContain('Estimated the AI return on investment');

    const session = await page.evaluate(() => localStorage.getItem('xv-agent-session'));
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    // The conversation belongs to this browser's anonymous owner cookie, which scripts cannot read.
    const owner = (await page.context().cookies()).find((c) => c.name === 'xv_agent_owner');
    expect(owner?.httpOnly).toBe(true);
    expect(await page.evaluate(() => document.cookie)).not.toContain('xv_agent_owner');
    const stateAs = async (cookie?: string) =>
      (await agent.fetch(`/api/state?session=${session}`, cookie ? { headers: { cookie } } : {})).json();
    expect((await stateAs(`xv_agent_owner=${owner!.value}`)).messageCount).toBe(2);
    expect((await stateAs()).messageCount).toBe(0);

    await page.reload();
    await expect.poll(() => page.locator('.message').count()).toBe(2);
    expect(await page.locator('.message.assistant .tool').count()).toBe(1);

    await page.getByRole('button', { name: 'New conversation' }).click();
    expect(await page.locator('.message').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('xv-agent-session'))).not.toBe(session);
  });

  it('renders a hostile answer as inert Markdown: no raw HTML, no javascript: link, nothing runs', async () => {
    const hostile = [
      'Here is the plan:',
      '',
      '- first **step**',
      '- second step',
      '',
      '```js',
      'const total = 1 + 1;',
      '```',
      '',
      '<img src=x onerror="window.__xss = 1"> and [click me](javascript:window.__xss=2)',
      '',
      'Read [the guide](https://example.com/guide).',
    ].join('\n');
    model.script(answer(hostile, { delayMs: 2 }));
    await page.goto(agent.url);
    await send('Give me a plan');
    const reply = page.locator('.message.assistant').last();
    await expect.poll(() => reply.locator('.body a', { hasText: 'the guide' }).count()).toBe(1);
    await expect.poll(() => reply.getAttribute('aria-busy')).toBeNull();

    const check = async () => {
      // Markdown became elements: a list, a code block, a link.
      expect(await reply.locator('.body ul > li').allTextContents()).toEqual(['first step', 'second step']);
      expect(await reply.locator('.body ul strong').textContent()).toBe('step');
      expect(await reply.locator('.body pre code').textContent()).toContain('const total = 1 + 1;');
      const guide = reply.locator('.body a', { hasText: 'the guide' });
      expect(await guide.getAttribute('href')).toBe('https://example.com/guide');
      expect(await guide.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await guide.getAttribute('target')).toBe('_blank');
      // The model's HTML is shown as text, its javascript: link has no target, and nothing ran.
      expect(await reply.locator('.body img, [onerror]').count()).toBe(0);
      expect(await reply.locator('.body').textContent()).toContain('<img src=x onerror=');
      expect(await reply.locator('.body a', { hasText: 'click me' }).getAttribute('href')).toBeNull();
      expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    };
    await check();
    // The history renders the same way after a reload.
    await page.reload();
    await expect.poll(() => page.locator('.message.assistant').count()).toBe(1);
    await check();
  });

  it('shows no notice about a missing model when one is configured', async () => {
    await page.goto(agent.url);
    expect(await page.locator('#no-model').count()).toBe(0);
  });

  it('GET / is always the chat page, whatever query or cookies come with it', async () => {
    const requests: RequestInit[] = [
      {},
      { headers: { cookie: 'xv_agent_owner=short' } },
      { headers: { accept: 'application/json' } },
    ];
    for (const init of requests)
      for (const path of ['/', '/?session=abc', '/?marks=1&x=%ZZ']) {
        const response = await agent.fetch(path, init);
        expect(response.status, `${path} ${JSON.stringify(init)}`).toBe(200);
        expect(response.headers.get('content-type')).toContain('text/html');
        expect(await response.text()).toContain('id="composer"');
      }
  });

  it('the chat page runs no inline script: every script is a bundled asset of the service', async () => {
    const html = await (await agent.fetch('/')).text();
    const scripts = html.match(/<script\b[^>]*>/gi) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/ src="\/assets\/[^"]+\.js"/);
    expect(html).not.toMatch(/<script\b[^>]*>[^<]/i);
  });

  it('shows the error when the model fails before answering', async () => {
    await page.goto(agent.url);
    await send('hello');
    const reply = page.locator('.message.assistant').last();
    await expect.poll(() => reply.getAttribute('class')).toContain('error');
    expect(await reply.locator('.body').textContent()).toContain('model failed');
  });
});
