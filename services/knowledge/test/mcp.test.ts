/**
 * The MCP server at /mcp, driven by the official SDK client over streamable
 * HTTP, in the 2025 (legacy) and the 2026-07-28 (negotiated) eras: both tools,
 * the document resources, the token checks and the Origin/Host checks.
 */
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describeEachDatabase } from '@xv/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish, startWorld, type World } from './helpers.js';

async function connect(world: World, token: string, mode: 'legacy' | 'auto') {
  const client = new Client({ name: 'kb-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(`${world.kb.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return Object.assign(client, { era: transport.protocolVersion });
}

describeEachDatabase('MCP server', (target) => {
  let world: World;
  let docId: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    world = await startWorld(target);
    docId = await publish(
      world,
      'sales/discounts.md',
      '# Discount policy\n\n## Approval\n\nDiscounts above 15 percent need the sales director’s approval.',
    );
    await publish(world, 'ops/shipping.md', '# Shipping\n\nOrders ship within two business days.');
    await publish(
      world,
      'globex/secret.md',
      '# Globex pricing\n\nDiscounts at Globex are never above 5 percent.',
      world.tokens.outsiderBoth,
      world.outsiderReviewer,
    );
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  for (const mode of ['legacy', 'auto'] as const) {
    describe(`with a ${mode === 'legacy' ? '2025-era' : 'negotiating (2026-07-28)'} client`, () => {
      let client: Client;
      beforeAll(async () => {
        client = await connect(world, world.tokens.read, mode);
        clients.push(client);
      });

      it('speaks the expected protocol revision', () => {
        const era = (client as Client & { era?: string }).era;
        if (mode === 'auto') expect(era).toBe('2026-07-28');
        else expect(era).toMatch(/^2025-/);
      });

      it('lists both tools', async () => {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(['list_documents', 'search_knowledge']);
      });

      it('searches approved knowledge of the token’s organization with search_knowledge', async () => {
        const result = await client.callTool({
          name: 'search_knowledge',
          arguments: { query: 'who approves large discounts', topK: 3 },
        });
        expect(result.isError).toBeFalsy();
        const { hits } = result.structuredContent as {
          hits: { docId: string; headingPath: string; text: string }[];
        };
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.length).toBeLessThanOrEqual(3);
        expect(hits[0]).toMatchObject({ docId, headingPath: 'Discount policy > Approval' });
        expect(JSON.stringify(result)).not.toContain('Globex');
      });

      it('pages through approved documents with list_documents', async () => {
        const first = await client.callTool({ name: 'list_documents', arguments: { limit: 1 } });
        const page1 = first.structuredContent as { documents: { path: string }[]; nextOffset: number | null };
        expect(page1.documents.map((d) => d.path)).toEqual(['ops/shipping.md']);
        expect(page1.nextOffset).toBe(1);
        const second = await client.callTool({ name: 'list_documents', arguments: { offset: 1, limit: 1 } });
        const page2 = second.structuredContent as {
          documents: { path: string }[];
          nextOffset: number | null;
        };
        expect(page2.documents.map((d) => d.path)).toEqual(['sales/discounts.md']);
        const rest = await client.callTool({ name: 'list_documents', arguments: { offset: 2 } });
        expect((rest.structuredContent as { documents: unknown[] }).documents).toEqual([]);
      });

      it('serves approved documents as resources', async () => {
        const { resources } = await client.listResources();
        expect(resources.map((r) => r.uri).sort()).toContain(`kb://documents/${docId}`);
        expect(resources).toHaveLength(2);
        const read = await client.readResource({ uri: `kb://documents/${docId}` });
        expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
        expect((read.contents[0] as { text: string }).text).toContain('sales director');
      });
    });
  }

  describe('access', () => {
    const initialize = (headers: Record<string, string>) =>
      world.kb.fetch('/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        }),
      });

    it('needs a token with ai:read', async () => {
      expect((await initialize({})).status).toBe(401);
      expect((await initialize({ authorization: `Bearer ${world.tokens.sync}` })).status).toBe(403);
      await expect(connect(world, world.tokens.sync, 'legacy')).rejects.toThrow();
      expect((await initialize({ authorization: `Bearer ${world.tokens.read}` })).status).toBe(200);
    });

    it('refuses foreign browser origins and unknown hosts', async () => {
      const auth = { authorization: `Bearer ${world.tokens.read}` };
      expect((await initialize({ ...auth, origin: 'https://evil.example' })).status).toBe(403);
      expect((await initialize({ ...auth, origin: world.kb.url })).status).toBe(200);
      // DNS rebinding: the browser talks to our address under an attacker's host name (fetch cannot set Host).
      const rebound = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          `${world.kb.url}/mcp`,
          {
            method: 'POST',
            headers: {
              ...auth,
              host: 'attacker.example',
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end('{}');
      });
      expect(rebound).toBe(403);
    });
  });
});
