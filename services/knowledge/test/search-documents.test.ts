/**
 * Search answers documents, not passages, on every database: a document is one
 * hit, its best passage in front and its other matching passages riding along;
 * `topK` counts documents, and its maximum (50) is enforced with a clear 400,
 * never a silent cap. The same for the public search and the MCP tool.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { setPublicAssistant } from '@xv/identity/testing';
import { describeEachDatabase } from '@xv/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish, search, startWorld, type World, withCookie, withToken } from './helpers.js';

const MAXIMUM_TOP_K = 50;
const SITES = [
  'Hanoi',
  'Haiphong',
  'Danang',
  'Hue',
  'Cantho',
  'Vinh',
  'Nhatrang',
  'Dalat',
  'Quynhon',
  'Vungtau',
  'Bienhoa',
  'Thudau',
];
const SECTIONS = ['Morning shift', 'Day shift', 'Night shift'];
const QUERY = 'forklift inspection checklist';

/** A document with three `##` sections (so several passages), each of them matching QUERY. */
function forkliftRules(site: string) {
  const sections = SECTIONS.map(
    (shift) =>
      `## ${shift}\n\nAt the ${site} warehouse the ${shift.toLowerCase()} lead signs the forklift inspection ` +
      `checklist before any forklift moves: brakes, horn, forks and the seat belt are checked.`,
  );
  return `# ${site} forklift rules\n\n${sections.join('\n\n')}\n`;
}

interface Passage {
  headingPath: string;
  text: string;
  score: number;
}
interface Hit extends Passage {
  docId: string;
  title: string;
  passages: Passage[];
}

const docIdsOf = (hits: Hit[]) => hits.map((h) => h.docId);

/** Every hit is a document with its best passage in front and the others in `passages`. */
function expectDocumentHits(hits: Hit[]) {
  expect(new Set(docIdsOf(hits)).size).toBe(hits.length);
  for (const hit of hits) {
    expect(hit).toMatchObject({
      docId: expect.any(String),
      title: expect.any(String),
      headingPath: expect.any(String),
      text: expect.any(String),
      score: expect.any(Number),
    });
    expect(Array.isArray(hit.passages)).toBe(true);
    for (const passage of hit.passages)
      expect(passage).toMatchObject({
        headingPath: expect.any(String),
        text: expect.any(String),
        score: expect.any(Number),
      });
  }
}

const INVALID_TOP_K: unknown[] = [0, -1, 2.5, 'ten'];

describeEachDatabase('search answers documents', (target) => {
  let world: World;
  let forkliftDocs: string[];
  const acme = () => world.maker.session.memberships[0]!.org_id;
  const publicSearch = (body: Record<string, unknown>) =>
    withToken(world.kb, undefined, '/api/public/search', { orgId: acme(), ...body });

  beforeAll(async () => {
    world = await startWorld(target, { XV_KB_PUBLIC_SEARCH_PER_MINUTE: '1000' });
    forkliftDocs = [];
    for (const site of SITES)
      forkliftDocs.push(await publish(world, `warehouses/${site.toLowerCase()}.md`, forkliftRules(site)));
    await publish(world, 'canteen.md', '# Canteen\n\nLunch is served from noon to two.');
    for (const docId of forkliftDocs) {
      const marked = await withCookie(world.kb, world.reviewer, `/api/documents/${docId}/visibility`, {
        public: true,
      });
      expect(marked.status).toBe(200);
    }
    await setPublicAssistant(world.identity.url, world.maker.cookie, true);
  });

  describe('POST /api/ai/search', () => {
    it('answers a document at most once, however many of its passages match', async () => {
      const found = await search(world, world.tokens.read, QUERY, 50);
      expect(found.status).toBe(200);
      expectDocumentHits(found.body.hits);
      expect(docIdsOf(found.body.hits)).toEqual(expect.arrayContaining(forkliftDocs));
    });

    it('counts topK in documents: 12 matching documents of 3 passages each, topK 10, give 10 documents', async () => {
      const found = await search(world, world.tokens.read, QUERY, 10);
      expect(found.status).toBe(200);
      expect(found.body.hits).toHaveLength(10);
      expect(new Set(docIdsOf(found.body.hits)).size).toBe(10);
      for (const docId of docIdsOf(found.body.hits)) expect(forkliftDocs).toContain(docId);
    });

    it("puts a document's best passage in front and its other matching passages in `passages`", async () => {
      const found = await search(world, world.tokens.read, QUERY, 10);
      expectDocumentHits(found.body.hits);
      for (const hit of found.body.hits as Hit[]) {
        const headings = [hit.headingPath, ...hit.passages.map((p) => p.headingPath)];
        // Each section once: the best one is not repeated among the others.
        expect(new Set(headings).size).toBe(headings.length);
        expect(new Set(headings)).toEqual(new Set(SECTIONS.map((s) => `${hit.title} > ${s}`)));
        for (const passage of [hit, ...hit.passages]) expect(passage.text).toContain('forklift inspection');
      }
    });

    it('always answers `passages` as an array, empty for a document with one passage', async () => {
      const found = await search(world, world.tokens.read, 'canteen lunch noon', 1);
      expect(found.status).toBe(200);
      expect(found.body.hits).toHaveLength(1);
      expect(found.body.hits[0]).toMatchObject({ title: 'Canteen', passages: [] });
    });

    it(`accepts topK ${MAXIMUM_TOP_K}, the maximum`, async () => {
      const found = await search(world, world.tokens.read, QUERY, MAXIMUM_TOP_K);
      expect(found.status).toBe(200);
      expect(found.body.hits.length).toBeLessThanOrEqual(MAXIMUM_TOP_K);
      expect(docIdsOf(found.body.hits)).toEqual(expect.arrayContaining(forkliftDocs));
    });

    it('refuses a topK above the maximum with 400 top_k_too_large, never a silent cap', async () => {
      for (const topK of [MAXIMUM_TOP_K + 1, 1000]) {
        const refused = await search(world, world.tokens.read, QUERY, topK);
        expect(refused.status, `topK ${topK}`).toBe(400);
        expect(refused.body).toMatchObject({ ok: false, error: 'top_k_too_large', maximum: MAXIMUM_TOP_K });
      }
    });

    it('refuses a topK that is not a positive whole number with a 4xx error', async () => {
      for (const topK of INVALID_TOP_K) {
        const refused = await withToken(world.kb, world.tokens.read, '/api/ai/search', {
          query: QUERY,
          topK,
        });
        expect(refused.status, `topK ${JSON.stringify(topK)}`).toBeGreaterThanOrEqual(400);
        expect(refused.status, `topK ${JSON.stringify(topK)}`).toBeLessThan(500);
        expect(refused.body.error).toEqual(expect.any(String));
      }
    });
  });

  describe('POST /api/public/search', () => {
    it('answers public documents at most once each, topK counting documents', async () => {
      const found = await publicSearch({ query: QUERY, topK: 10 });
      expect(found.status).toBe(200);
      expect(found.body.hits).toHaveLength(10);
      expectDocumentHits(found.body.hits);
      for (const docId of docIdsOf(found.body.hits)) expect(forkliftDocs).toContain(docId);
      for (const hit of found.body.hits as Hit[]) expect(hit.passages.length).toBeGreaterThan(0);
    });

    it(`accepts topK ${MAXIMUM_TOP_K}, the maximum`, async () => {
      const most = await publicSearch({ query: QUERY, topK: MAXIMUM_TOP_K });
      expect(most.status).toBe(200);
      expect(most.body.hits.length).toBeLessThanOrEqual(MAXIMUM_TOP_K);
    });

    it('refuses a topK above the maximum with 400 top_k_too_large, never a silent cap', async () => {
      for (const topK of [MAXIMUM_TOP_K + 1, 1000]) {
        const refused = await publicSearch({ query: QUERY, topK });
        expect(refused.status, `topK ${topK}`).toBe(400);
        expect(refused.body).toMatchObject({ ok: false, error: 'top_k_too_large', maximum: MAXIMUM_TOP_K });
      }
    });

    it('refuses a topK that is not a positive whole number with a 4xx error', async () => {
      for (const topK of INVALID_TOP_K) {
        const refused = await publicSearch({ query: QUERY, topK });
        expect(refused.status, `topK ${JSON.stringify(topK)}`).toBeGreaterThanOrEqual(400);
        expect(refused.status, `topK ${JSON.stringify(topK)}`).toBeLessThan(500);
        expect(refused.body.error).toEqual(expect.any(String));
      }
    });
  });

  describe('MCP tool search_knowledge', () => {
    let client: Client;
    beforeAll(async () => {
      client = new Client({ name: 'kb-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${world.kb.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${world.tokens.read}` } },
        }),
      );
    });
    afterAll(async () => {
      await client.close();
    });

    it('answers distinct documents, topK counting documents', async () => {
      const result = await client.callTool({
        name: 'search_knowledge',
        arguments: { query: QUERY, topK: 10 },
      });
      expect(result.isError).toBeFalsy();
      const { hits } = result.structuredContent as { hits: Hit[] };
      expect(hits).toHaveLength(10);
      expectDocumentHits(hits);
    });

    it(`accepts topK ${MAXIMUM_TOP_K}`, async () => {
      const result = await client.callTool({
        name: 'search_knowledge',
        arguments: { query: QUERY, topK: MAXIMUM_TOP_K },
      });
      expect(result.isError).toBeFalsy();
      const { hits } = result.structuredContent as { hits: Hit[] };
      expect(hits.length).toBeLessThanOrEqual(MAXIMUM_TOP_K);
      expect(docIdsOf(hits)).toEqual(expect.arrayContaining(forkliftDocs));
    });

    it('refuses a topK above the maximum as a tool error naming the argument', async () => {
      // The SDK answers arguments that fail the tool's schema with a tool result marked isError.
      const result = await client.callTool({
        name: 'search_knowledge',
        arguments: { query: QUERY, topK: MAXIMUM_TOP_K + 1 },
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
      expect(text).toMatch(/Input validation error/);
      expect(text).toMatch(/topK/);
    });
  });
});
