/**
 * The shipped workflows, end to end over HTTP: the model is the scripted model
 * server; the knowledge base and trust service are small local stand-ins that
 * speak their endpoints (`POST /api/ai/search`, `POST /api/seal`) as the spec gives them.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  answer,
  describeEachDatabase,
  type ModelServer,
  startModelServer,
  startService,
} from '@xv/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orchestrationService } from '../src/service.js';
import { expectError, jsonInit, modelEnv, type RunningOrchestration } from './helpers.js';

const ADMIN_TOKEN = 'operator-token-0123456789';
const KB_TOKEN = 'xkb_test-token';

describeEachDatabase('built-in workflows', (target) => {
  let service: RunningOrchestration;
  let model: ModelServer;
  const received: { path: string; authorization?: string; body: Record<string, unknown> }[] = [];
  const sibling = createServer(async (req: IncomingMessage, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text || '{}');
    received.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/ai/search') {
      if (req.headers.authorization !== `Bearer ${KB_TOKEN}`) return res.writeHead(401).end('{"ok":false}');
      return res.end(
        JSON.stringify({
          hits: [
            {
              docId: 'doc_1',
              title: 'Refunds',
              headingPath: 'Policies > Refunds',
              text: 'Refunds within 30 days.',
              score: 0.91,
            },
          ],
        }),
      );
    }
    if (req.url === '/api/seal') {
      return res.end(
        JSON.stringify({ receiptId: 'rcpt_test', outputHash: 'sha256-abc', manifestHash: 'sha256-def' }),
      );
    }
    res.writeHead(404).end('{}');
  });

  beforeAll(async () => {
    model = await startModelServer();
    await new Promise<void>((resolve) => sibling.listen(0, '127.0.0.1', resolve));
    const siblingUrl = `http://127.0.0.1:${(sibling.address() as AddressInfo).port}`;
    service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: {
        ...modelEnv(model, 'house-model'),
        XV_KB_URL: siblingUrl,
        XV_TRUST_URL: siblingUrl,
        XV_ORCH_KB_TOKEN: KB_TOKEN,
        XV_ORCH_ADMIN_TOKEN: ADMIN_TOKEN,
      },
    });
  });
  afterAll(async () => {
    await model.close();
    await new Promise<void>((resolve) => sibling.close(() => resolve()));
  });

  const run = (workflow: string, input: unknown) => service.fetch('/api/wf', jsonInit({ workflow, input }));

  it('qualify-lead stores the lead and returns the model qualification', async () => {
    model.script(answer('Score 8/10: a good fit; ask about volumes.'));
    const body = await (
      await run('qualify-lead', {
        name: 'Lin',
        email: 'lin@factory.example',
        company: 'Factory',
        need: 'Automate invoices',
      })
    ).json();
    expect(body.status).toBe('done');
    expect(body.result.qualification).toBe('Score 8/10: a good fit; ask about volumes.');
    expect(body.result.leadId).toMatch(/^lead_/);
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain('Automate invoices');
    const { leads } = await (
      await service.fetch('/api/leads', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).json();
    expect(leads.find((l: { email: string }) => l.email === 'lin@factory.example')).toMatchObject({
      tool: 'qualify-lead',
    });
  });

  it('qualify-lead answers 400 personal_email for a personal address, as /api/lead does, before any run', async () => {
    const before = model.requests.length;
    const body = await expectError(
      await run('qualify-lead', { name: 'Lin', email: 'lin@gmail.com', company: 'Home' }),
      400,
      'personal_email',
    );
    expect(body).not.toHaveProperty('runId');
    await expectError(
      await run('qualify-lead', { name: 'Lin', email: 'lin@mailinator.com', company: 'Home' }),
      400,
      'personal_email',
    );
    expect(model.requests.length).toBe(before);
  });

  it('qualify-lead answers 400 invalid naming the email field for a malformed address', async () => {
    const body = await expectError(
      await run('qualify-lead', { name: 'Lin', email: 'not-an-address', company: 'Home' }),
      400,
      'invalid',
    );
    expect(body.field).toBe('email');
  });

  it('kb-answer searches the knowledge base with its token and answers from the hits', async () => {
    model.script(answer('Refunds are accepted within 30 days [1].'));
    const body = await (await run('kb-answer', { question: 'What is the refund policy?' })).json();
    expect(body.status).toBe('done');
    expect(body.result.answer).toBe('Refunds are accepted within 30 days [1].');
    expect(body.result.sources[0]).toMatchObject({ docId: 'doc_1' });
    expect(received.find((r) => r.path === '/api/ai/search')?.body).toEqual({
      query: 'What is the refund policy?',
      topK: 5,
    });
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain('Refunds within 30 days.');
  });

  it('summarise-and-seal seals the model summary with the trust service', async () => {
    model.script(answer('- One point.'));
    const body = await (await run('summarise-and-seal', { text: 'A long report.', title: 'Q3' })).json();
    expect(body.status).toBe('done');
    expect(body.result).toMatchObject({ summary: '- One point.', receipt: { receiptId: 'rcpt_test' } });
    const seal = received.find((r) => r.path === '/api/seal')!;
    expect(seal.body).toMatchObject({
      modelId: 'orchestration/summarise-and-seal',
      output: '- One point.',
      input: { title: 'Q3' },
    });
  });
});
