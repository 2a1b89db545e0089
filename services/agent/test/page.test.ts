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
      .poll(() => reply.locator('.body').textContent())
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
