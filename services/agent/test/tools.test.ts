import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type SignedIn, startIdentity } from '@xv/identity/testing';
import { createToken, publishDocument, signUpMakerAndReviewer, startKnowledge } from '@xv/knowledge/testing';
import {
  answer,
  callTool,
  describeEachDatabase,
  freePort,
  type ModelServer,
  type RunningService,
  startModelServer,
} from '@xv/platform/testing';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { STEP_LIMIT_NOTE } from '../src/chat/turn.js';
import {
  type Agent,
  chat,
  chatRequest,
  MODEL_KEY,
  modelEnv,
  newSession,
  postJson,
  startAgent,
  state,
} from './helpers.js';

const REFUND_POLICY =
  '# Refund policy\n\n## Deadline\n\nCustomers may return a product within 30 days of delivery for a full refund.\n';

/** The tool results the model was given in its request `index`. */
function toolResults(model: ModelServer, index: number): unknown[] {
  return model.requests[index]!.messages.filter((m: { role: string }) => m.role === 'tool').map(
    (m: { content: string }) => JSON.parse(m.content),
  );
}

/** A person of Acme, a reviewer, and one approved document in the real knowledge base. */
async function knowledgeWorld(identity: RunningService, kb: RunningService) {
  const tag = Math.random().toString(36).slice(2, 8);
  const { maker, reviewer } = await signUpMakerAndReviewer(identity.url, tag);
  const token = await createToken(kb.url, maker.cookie, ['sync'], 'vault');
  const docId = await publishDocument(
    kb.url,
    { token, reviewerCookie: reviewer.cookie },
    { path: 'policies/refunds.md', content: REFUND_POLICY },
  );
  return { maker, docId };
}

/** Sends a message as a signed-in person and returns the whole answer. */
async function chatAs(agent: Agent, who: SignedIn, message: string) {
  const response = await agent.fetch(`/api/chat?session=${newSession()}`, {
    method: 'POST',
    headers: { cookie: who.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

describeEachDatabase('agent tools', (target) => {
  let model: ModelServer;
  let agent: Agent;
  let agentWithoutKnowledge: Agent;
  let docId: string;
  let maker: SignedIn;
  let webhook: Server;
  const webhookCalls: { event: string; ticket: { id: string; title: string } }[] = [];

  beforeAll(async () => {
    model = await startModelServer({ apiKey: MODEL_KEY });
    const identity = await startIdentity(await target.open('identity'));
    const kb = await startKnowledge(await target.open('knowledge'), identity.url);
    const world = await knowledgeWorld(identity, kb);
    ({ docId, maker } = world);
    webhook = createServer((req, res) => {
      let body = '';
      req.on('data', (part) => {
        body += part;
      });
      req.on('end', () => {
        webhookCalls.push(JSON.parse(body));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    const agentDatabase = await target.open('agent');
    agent = await startAgent(
      agentDatabase,
      modelEnv(model, {
        XV_IDENTITY_URL: identity.url,
        XV_KB_URL: kb.url,
        XV_AGENT_TICKET_WEBHOOK: `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hook`,
      }),
    );
    // Nothing listens on a fresh free port: the knowledge base is down.
    agentWithoutKnowledge = await startAgent(
      agentDatabase,
      modelEnv(model, { XV_IDENTITY_URL: identity.url, XV_KB_URL: `http://127.0.0.1:${await freePort()}` }),
    );
  });
  afterAll(async () => {
    await model.close();
    await new Promise((resolve) => webhook.close(resolve));
  });
  beforeEach(() => model.reset());

  it("knowledgeBaseSearch finds an approved document of the signed-in person's organization", async () => {
    model.script(
      callTool('knowledgeBaseSearch', { query: 'how many days to return a product for a refund' }),
      answer('Within 30 days.'),
    );
    expect(await chatAs(agent, maker, 'What is the refund deadline?')).toBe('Within 30 days.');
    const [result] = toolResults(model, 1) as { hits: { docId: string; text: string; score: number }[] }[];
    expect(result!.hits.length).toBeGreaterThan(0);
    expect(result!.hits[0]!.docId).toBe(docId);
    expect(result!.hits[0]!.text).toContain('30 days');
  });

  it('reports a knowledge base that cannot be reached to the model, and the answer still comes', async () => {
    model.script(
      callTool('knowledgeBaseSearch', { query: 'refunds' }),
      answer('I could not search right now.'),
    );
    expect(await chatAs(agentWithoutKnowledge, maker, 'refunds?')).toBe('I could not search right now.');
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('The knowledge base is unreachable.');
  });

  it('estimateAiRoi computes hours, VND per month and per year, and payback', async () => {
    model.script(
      callTool('estimateAiRoi', { department: 'Sales', headcount: 10, avgMonthlySalaryVnd: 20_000_000 }),
      answer('About 40 million VND a month.'),
    );
    await chat(agent, newSession(), 'ROI for sales?');
    expect(toolResults(model, 1)[0]).toMatchObject({
      department: 'sales',
      automatableShare: 0.2,
      hoursSavedPerMonth: 352,
      vndSavedPerMonth: 40_000_000,
      vndSavedPerYear: 480_000_000,
      netVndPerMonth: 35_000_000,
      paybackMonths: 1.5,
    });
  });

  it('gives the model an error for invalid tool arguments instead of failing the turn', async () => {
    model.script(
      callTool('estimateAiRoi', { department: 'sales', headcount: -3, avgMonthlySalaryVnd: 'lots' }),
      answer('Please give me a headcount.'),
    );
    const session = newSession();
    expect(await chat(agent, session, 'ROI?')).toBe('Please give me a headcount.');
    const toolMessage = JSON.stringify(
      model.requests[1]!.messages.filter((m: { role: string }) => m.role === 'tool'),
    );
    expect(toolMessage).toMatch(/headcount|Invalid/i);
    expect((await state(agent, session)).messageCount).toBe(2);
  });

  it('createTicket stores a ticket for the tenant, lists it, and calls the webhook', async () => {
    const session = newSession();
    await postJson(agent, `/api/config?session=${session}`, { tenant: 'acme-support' });
    model.script(
      callTool('createTicket', {
        title: 'Call back about pricing',
        priority: 'high',
        details: 'Wants a quote',
      }),
      answer('A colleague will call you.'),
    );
    await chat(agent, session, 'Please have someone call me');
    const [result] = toolResults(model, 1) as { id: string }[];
    expect(result!.id).toMatch(/^tkt_/);
    const listed = await (await agent.fetch(`/api/tickets?session=${session}`)).json();
    expect(listed.tickets).toEqual([
      expect.objectContaining({
        id: result!.id,
        tenant: 'acme-support',
        title: 'Call back about pricing',
        priority: 'high',
        details: 'Wants a quote',
      }),
    ]);
    const other = await (await agent.fetch(`/api/tickets?session=${newSession()}`)).json();
    expect(other.tickets.map((t: { id: string }) => t.id)).not.toContain(result!.id);
    await expect
      .poll(() => webhookCalls.find((c) => c.ticket.id === result!.id))
      .toMatchObject({
        event: 'ticket.created',
        ticket: { title: 'Call back about pricing' },
      });
  });

  it('stops after 5 tool steps, says so, and saves the turn', async () => {
    for (let i = 0; i < 7; i++)
      model.script(
        callTool('estimateAiRoi', { department: 'hr', headcount: i + 1, avgMonthlySalaryVnd: 1e7 }),
      );
    const session = newSession();
    const text = await chat(agent, session, 'loop forever');
    expect(model.requests).toHaveLength(5);
    expect(text).toBe(STEP_LIMIT_NOTE);
    const saved = (await state(agent, session)).messages;
    expect(saved[1]).toMatchObject({ role: 'assistant', content: STEP_LIMIT_NOTE, tools: ['estimateAiRoi'] });
  });

  it('marks tool use in the stream for the page, and keeps the plain body clean for API clients', async () => {
    const roi = { department: 'marketing', headcount: 2, avgMonthlySalaryVnd: 15_000_000 };
    model.script(
      callTool('estimateAiRoi', roi),
      answer('Worth it.'),
      callTool('estimateAiRoi', roi),
      answer('Worth it.'),
    );
    const marked = await (await chatRequest(agent, newSession(), 'roi?', { marks: true })).text();
    expect(marked).toBe('\u001e{"tool":"estimateAiRoi","ok":true}\nWorth it.');
    const session = newSession();
    expect(await chat(agent, session, 'roi?')).toBe('Worth it.');
    expect((await state(agent, session)).messages[1].tools).toEqual(['estimateAiRoi']);
  });
});
