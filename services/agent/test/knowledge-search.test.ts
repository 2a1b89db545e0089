/**
 * knowledgeBaseSearch against the real knowledge service, on every database:
 * its hits are distinct documents (the knowledge base answers documents, not
 * passages), and the topK the model may ask for is the knowledge base's own
 * maximum, 50: shown to the model in the tool's schema, accepted, and one more
 * refused as the tool's error.
 */
import { type SignedIn, startIdentity } from '@xv/identity/testing';
import { createToken, publishDocument, signUpMakerAndReviewer, startKnowledge } from '@xv/knowledge/testing';
import {
  answer,
  callTool,
  describeEachDatabase,
  type ModelServer,
  startModelServer,
} from '@xv/platform/testing';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type Agent, MODEL_KEY, modelEnv, newSession, startAgent } from './helpers.js';

/** The knowledge base's largest topK (services/knowledge search limits). */
const KNOWLEDGE_MAX_TOP_K = 50;
const SECTIONS = ['Deadline', 'Receipt', 'Exceptions'];

/** A refund policy with three sections, every one of them about the refund deadline. */
const refundPolicy = (shop: string) =>
  `# ${shop} refund policy\n\n${SECTIONS.map(
    (section) =>
      `## ${section}\n\nAt the ${shop} shop the refund deadline is 30 days after delivery; ` +
      `the ${section.toLowerCase()} rules of the refund deadline apply to every product.`,
  ).join('\n\n')}\n`;

interface Hit {
  docId: string;
}

/** The hits of a tool result that must be a success (an error arrives as plain text). */
function hitsOf(result: string): Hit[] {
  expect(result, 'the tool answered hits, not an error').toMatch(/^\{"hits":/);
  return (JSON.parse(result) as { hits: Hit[] }).hits;
}

/** The tool results the model was given in its request `index`, as sent (JSON text or an error). */
function toolMessages(model: ModelServer, index: number): string[] {
  return model.requests[index]!.messages.filter((m: { role: string }) => m.role === 'tool').map(
    (m: { content: string }) => m.content,
  );
}

describeEachDatabase('knowledgeBaseSearch', (target) => {
  let model: ModelServer;
  let agent: Agent;
  let maker: SignedIn;
  const refundDocs: string[] = [];

  beforeAll(async () => {
    model = await startModelServer({ apiKey: MODEL_KEY });
    const identity = await startIdentity(await target.open('identity'));
    const kb = await startKnowledge(await target.open('knowledge'), identity.url);
    const people = await signUpMakerAndReviewer(identity.url, Math.random().toString(36).slice(2, 8));
    maker = people.maker;
    const token = await createToken(kb.url, maker.cookie, ['sync'], 'vault');
    for (const shop of ['Hanoi', 'Danang', 'Saigon', 'Hue'])
      refundDocs.push(
        await publishDocument(
          kb.url,
          { token, reviewerCookie: people.reviewer.cookie },
          { path: `refunds/${shop.toLowerCase()}.md`, content: refundPolicy(shop) },
        ),
      );
    agent = await startAgent(
      await target.open('agent'),
      modelEnv(model, { XV_IDENTITY_URL: identity.url, XV_KB_URL: kb.url }),
    );
  });
  afterAll(async () => {
    await model.close();
  });
  beforeEach(() => model.reset());

  /** One turn in which the model calls knowledgeBaseSearch with `input`; returns what the tool gave it. */
  async function searchAs(input: Record<string, unknown>): Promise<string> {
    model.script(callTool('knowledgeBaseSearch', input), answer('Done.'));
    const response = await agent.fetch(`/api/chat?session=${newSession()}`, {
      method: 'POST',
      headers: { cookie: maker.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'What is the refund deadline?' }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Done.');
    const [result] = toolMessages(model, 1);
    return result!;
  }

  it('answers each document once, however many of its passages match', async () => {
    // Every section of the Hanoi policy matches better than any other document's.
    const hits = hitsOf(await searchAs({ query: 'Hanoi shop refund deadline', topK: 3 }));
    const docIds = hits.map((h) => h.docId);
    expect(docIds).toHaveLength(3);
    expect(new Set(docIds).size).toBe(3);
    expect(docIds[0]).toBe(refundDocs[0]);
    for (const docId of docIds) expect(refundDocs).toContain(docId);
  });

  it('marks the search with the documents it found, for the page to link (marks=1)', async () => {
    model.script(
      callTool('knowledgeBaseSearch', { query: 'Hanoi shop refund deadline', topK: 2 }),
      answer('Done.'),
    );
    const response = await agent.fetch(`/api/chat?session=${newSession()}&marks=1`, {
      method: 'POST',
      headers: { cookie: maker.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'What is the refund deadline in Hanoi?' }),
    });
    const body = await response.text();
    expect(body.startsWith('\u001e')).toBe(true);
    expect(body.endsWith('\nDone.')).toBe(true);
    const mark = JSON.parse(body.slice(1, body.indexOf('\n')));
    expect(mark).toMatchObject({ tool: 'knowledgeBaseSearch', ok: true });
    expect(mark.sources).toHaveLength(2);
    expect(mark.sources[0]).toEqual({ docId: refundDocs[0], title: 'Hanoi refund policy' });
  });

  it(`shows the model the knowledge base's maximum topK, ${KNOWLEDGE_MAX_TOP_K}`, async () => {
    await searchAs({ query: 'refund deadline' });
    const tool = model.requests[0]!.tools.find(
      (t: { function: { name: string } }) => t.function.name === 'knowledgeBaseSearch',
    );
    expect(tool.function.parameters.properties.topK).toMatchObject({ maximum: KNOWLEDGE_MAX_TOP_K });
  });

  it(`accepts topK ${KNOWLEDGE_MAX_TOP_K} and answers distinct documents`, async () => {
    const hits = hitsOf(await searchAs({ query: 'refund deadline', topK: KNOWLEDGE_MAX_TOP_K }));
    const docIds = hits.map((h) => h.docId);
    expect(new Set(docIds).size).toBe(docIds.length);
    expect(docIds).toEqual(expect.arrayContaining(refundDocs));
  });

  it(`gives the model an error for topK ${KNOWLEDGE_MAX_TOP_K + 1}, and the turn goes on`, async () => {
    const result = await searchAs({ query: 'refund deadline', topK: KNOWLEDGE_MAX_TOP_K + 1 });
    expect(result).not.toContain('"hits"');
    expect(result).toMatch(/topK|Invalid|too_big|less than or equal/i);
  });
});
