/**
 * @module e2e/support/load-scenarios
 * One write-heavy load per service for the crash-safety test, and what must hold
 * after a `kill -9` and a restart: every acknowledged write is there, whole, and
 * nothing is half-written (checked through the API and in the database).
 *
 * | service | load | after the restart |
 * |---|---|---|
 * | identity | registrations | each acknowledged person signs in; no user without a membership, no organization without a member |
 * | knowledge | push → submit → approve | each document in at least its acknowledged state, same hash; an approved one has chunks and is found |
 * | trust (demo) | seals | each receipt verifies valid/intact; every stored manifest carries both signatures |
 * | chain | anchors | each anchor is known and gets mined; every anchor's transaction is recorded; no nonce used twice |
 * | agent | chat turns that open tickets | each turn stored once, question then answer; its ticket exists once |
 * | orchestration | leads and workflow runs | each lead listed; each run done with every step once; abandoned runs resumed |
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ServiceName } from '@xv/platform';
import { answer, callTool, type ModelStep, reply } from '@xv/platform/testing';
import { expect } from 'vitest';
import { getJson, postJson, request } from './load-runner.js';
import { openServiceDatabase } from './openapi-snapshot.js';
import { type Platform, waitFor } from './platform.js';

/** What a scenario gets: the platform, its database URL (PostgreSQL) and people signed up before. */
export interface ScenarioContext {
  platform: Platform;
  databaseUrl: string | undefined;
  /** Admin of an organization: `cookie` for SSO, `kbToken` a knowledge base PAT (sync, ai:read). */
  admin: { cookie: string; kbToken: string };
  /** A reviewer of the same organization (the maker cannot review). */
  reviewer: { cookie: string };
  /** Bearer tokens of the relayer and of the orchestration operator. */
  chainToken: string;
  orchestrationAdminToken: string;
}

export interface CrashScenario<Ack> {
  service: ServiceName;
  /** What the load writes, for titles: "registrations". */
  writes: string;
  workers: number;
  /** Forgets what an earlier run of the scenario recorded. */
  start?(): void;
  write(ctx: ScenarioContext, n: number): Promise<Ack>;
  /** Every acknowledged write is there and whole; nothing is half-written. */
  verify(ctx: ScenarioContext, acknowledged: Ack[]): Promise<void>;
}

const run = randomBytes(3).toString('hex');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function withDatabase<T>(
  ctx: ScenarioContext,
  service: ServiceName,
  work: (db: Awaited<ReturnType<typeof openServiceDatabase>>) => Promise<T>,
): Promise<T> {
  const db = await openServiceDatabase(ctx.platform, service, ctx.databaseUrl);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

const count = (rows: Record<string, unknown>[]) => Number(rows[0]?.n ?? 0);

/** At most `size` items spread over the list, first and last included: what is checked one API call each. */
function spread<T>(items: T[], size = 40): T[] {
  if (items.length <= size) return items;
  return Array.from({ length: size }, (_, i) => items[Math.round((i * (items.length - 1)) / (size - 1))]!);
}

// ---------------------------------------------------------------- identity

interface Registration {
  email: string;
  password: string;
}

export const identityRegistrations: CrashScenario<Registration> = {
  service: 'identity',
  writes: 'registrations',
  workers: 4,
  async write(ctx, n) {
    const person = { email: `crash-${run}-${n}@xv.test`, password: `secret-${n}-pw`, name: `Crash ${n}` };
    const response = await request(
      `${ctx.platform.url('identity')}/api/auth/register`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...person, orgName: `Crash Org ${n}` }).toString(),
        redirect: 'manual',
      },
      303,
    );
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('xv_session=') && c.length > 12);
    if (!cookie || response.headers.get('location') !== '/account') throw new Error('registration refused');
    return { email: person.email, password: person.password };
  },
  async verify(ctx, acknowledged) {
    await withDatabase(ctx, 'identity', async (db) => {
      const users = await db.rows(
        `SELECT u.email, COUNT(m.org_id) AS memberships FROM users u
         LEFT JOIN memberships m ON m.user_id = u.id GROUP BY u.id, u.email`,
      );
      const memberships = new Map(users.map((u) => [u.email as string, Number(u.memberships)]));
      for (const { email } of acknowledged) expect(memberships.get(email), email).toBeGreaterThanOrEqual(1);
      expect(users.filter((u) => Number(u.memberships) === 0).map((u) => u.email)).toEqual([]);
      const orphans = await db.rows(
        `SELECT COUNT(*) AS n FROM organizations o
         WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.org_id = o.id)`,
      );
      expect(count(orphans), 'organizations without a member').toBe(0);
    });
    // Signing in proves the password hash, the user and the organization came back usable.
    for (const { email, password } of acknowledged.slice(-3)) {
      const response = await request(
        `${ctx.platform.url('identity')}/api/auth/login`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email, password }).toString(),
          redirect: 'manual',
        },
        303,
      );
      expect(response.headers.get('location'), email).toBe('/account');
    }
  },
};

// ---------------------------------------------------------------- knowledge base

type DocState = 'draft' | 'under_review' | 'approved';
interface PushedDocument {
  docId: string;
  path: string;
  hash: string;
  word: string;
  state: DocState;
}

const STATE_ORDER: DocState[] = ['draft', 'under_review', 'approved'];
/** Documents the load got at least one acknowledgement for, with the furthest acknowledged state. */
const pushed = new Map<string, PushedDocument>();

export const knowledgePushes: CrashScenario<PushedDocument> = {
  service: 'knowledge',
  writes: 'pushes, submissions and approvals',
  workers: 4,
  start: () => pushed.clear(),
  async write(ctx, n) {
    const kb = ctx.platform.url('knowledge');
    const pat = { authorization: `Bearer ${ctx.admin.kbToken}` };
    const word = `zebra${run}x${n}`;
    const content = `# Crash document ${n}\n\nThis page is about ${word}.\n\n## Details\n\nMore about ${word} here.\n`;
    const path = `crash/${run}/${n}.md`;
    const hash = sha256(content);
    const pushedDoc = await postJson<{ docId: string; state: string }>(
      `${kb}/api/sync/push`,
      { path, content, hash, title: `Crash ${n}` },
      pat,
    );
    const doc: PushedDocument = { docId: pushedDoc.docId, path, hash, word, state: 'draft' };
    pushed.set(doc.docId, doc);
    await postJson(`${kb}/api/sync/submit`, { docId: doc.docId }, pat);
    doc.state = 'under_review';
    await postJson(
      `${kb}/api/review/decide`,
      { docId: doc.docId, decision: 'approve' },
      { cookie: ctx.reviewer.cookie },
    );
    doc.state = 'approved';
    return doc;
  },
  async verify(ctx) {
    const kb = ctx.platform.url('knowledge');
    const documents = [...pushed.values()];
    const { documents: manifest } = await getJson<{
      documents: { docId: string; hash: string; state: DocState }[];
    }>(`${kb}/api/sync/manifest`, { authorization: `Bearer ${ctx.admin.kbToken}` });
    const byId = new Map(manifest.map((d) => [d.docId, d]));
    for (const doc of documents) {
      const stored = byId.get(doc.docId);
      expect(stored, doc.path).toBeDefined();
      expect(stored!.hash, doc.path).toBe(doc.hash);
      expect(STATE_ORDER.indexOf(stored!.state), `${doc.path} is ${stored!.state}`).toBeGreaterThanOrEqual(
        STATE_ORDER.indexOf(doc.state),
      );
    }
    await withDatabase(ctx, 'knowledge', async (db) => {
      const dangling = await db.rows(
        `SELECT COUNT(*) AS n FROM documents d
         WHERE NOT EXISTS (SELECT 1 FROM revisions r WHERE r.id = d.latest_revision_id)`,
      );
      expect(count(dangling), 'documents whose newest revision is missing').toBe(0);
      const unindexed = await db.rows(
        `SELECT d.path FROM documents d
         WHERE d.live_revision_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.revision_id = d.live_revision_id)`,
      );
      expect(
        unindexed.map((r) => r.path),
        'approved documents without chunks',
      ).toEqual([]);
      const approvedWithoutLive = await db.rows(
        `SELECT d.path FROM documents d JOIN revisions r ON r.id = d.latest_revision_id
         WHERE r.state = 'approved' AND (d.live_revision_id IS NULL OR d.live_revision_id <> r.id)`,
      );
      expect(
        approvedWithoutLive.map((r) => r.path),
        'approved revisions not live',
      ).toEqual([]);
    });
    // Approved knowledge is searchable again after the restart.
    for (const doc of documents.filter((d) => d.state === 'approved').slice(-3)) {
      const { hits } = await postJson<{ hits: { docId: string }[] }>(
        `${kb}/api/ai/search`,
        { query: doc.word, topK: 5 },
        { authorization: `Bearer ${ctx.admin.kbToken}` },
      );
      expect(
        hits.map((h) => h.docId),
        doc.word,
      ).toContain(doc.docId);
    }
  },
};

// ---------------------------------------------------------------- trust (demo mode)

interface Seal {
  receiptId: string;
  outputHash: string;
}

export const trustSeals: CrashScenario<Seal> = {
  service: 'trust',
  writes: 'seals (demo mode)',
  workers: 4,
  async write(ctx, n) {
    const receipt = await postJson<Seal>(`${ctx.platform.url('trust')}/api/seal`, {
      modelId: 'crash-model',
      output: `Answer number ${n} of run ${run}`,
      input: { question: n },
    });
    return { receiptId: receipt.receiptId, outputHash: receipt.outputHash };
  },
  async verify(ctx, acknowledged) {
    const trust = ctx.platform.url('trust');
    for (const seal of spread(acknowledged)) {
      const result = await getJson<{ status: string; integrity: string }>(
        `${trust}/api/verify?receiptId=${seal.receiptId}`,
      );
      expect(result, seal.receiptId).toMatchObject({ status: 'valid', integrity: 'intact' });
    }
    await withDatabase(ctx, 'trust', async (db) => {
      const receipts = await db.rows('SELECT receipt_id, output_hash, manifest_hash, manifest FROM receipts');
      const stored = new Map(receipts.map((r) => [r.receipt_id as string, r]));
      for (const seal of acknowledged) expect(stored.get(seal.receiptId)?.output_hash).toBe(seal.outputHash);
      for (const receipt of receipts) {
        const manifest = JSON.parse(String(receipt.manifest)) as {
          claim?: unknown;
          signatures?: { p256Sig?: string; ethSig?: string };
        };
        expect(manifest.claim, String(receipt.receipt_id)).toBeDefined();
        expect(manifest.signatures?.p256Sig, String(receipt.receipt_id)).toMatch(/^[\w-]{86}$/);
        expect(manifest.signatures?.ethSig, String(receipt.receipt_id)).toMatch(/^0x[0-9a-f]{130}$/i);
        expect(receipt.manifest_hash).toMatch(/^sha256-[0-9a-f]{64}$/);
      }
    });
  },
};

// ---------------------------------------------------------------- chain relayer

interface Anchor {
  ref: string;
  txHash: string;
}

export const chainAnchors: CrashScenario<Anchor> = {
  service: 'chain',
  writes: 'anchors',
  workers: 3,
  async write(ctx, n) {
    const hash = `0x${sha256(`crash ${run} ${n}`)}`;
    const anchor = await postJson<Anchor & { status: string }>(
      `${ctx.platform.url('chain')}/api/anchors`,
      { hash },
      { authorization: `Bearer ${ctx.chainToken}` },
    );
    return { ref: anchor.ref, txHash: anchor.txHash };
  },
  async verify(ctx, acknowledged) {
    const chain = ctx.platform.url('chain');
    const auth = { authorization: `Bearer ${ctx.chainToken}` };
    await withDatabase(ctx, 'chain', async (db) => {
      // The relayer resends what the chain lacks after its restart; every acknowledged anchor gets mined.
      await waitFor(
        async () => {
          const status = new Map(
            (await db.rows('SELECT ref, status FROM anchors')).map((r) => [r.ref, r.status]),
          );
          return acknowledged.every((a) => status.has(a.ref) && status.get(a.ref) !== 'pending');
        },
        'every acknowledged anchor to be mined',
        30_000,
      );
      const unrecorded = await db.rows(
        `SELECT a.ref FROM anchors a
         WHERE NOT EXISTS (SELECT 1 FROM anchor_attempts t WHERE t.tx_hash = a.tx_hash AND t.ref = a.ref)`,
      );
      expect(
        unrecorded.map((r) => r.ref),
        "anchors whose transaction isn't recorded",
      ).toEqual([]);
      const reused = await db.rows(
        'SELECT nonce, COUNT(*) AS n FROM anchors GROUP BY from_address, chain_id, nonce HAVING COUNT(*) > 1',
      );
      expect(reused, 'nonces used by two anchors').toEqual([]);
    });
    for (const anchor of spread(acknowledged)) {
      const view = await getJson<{ ref: string; status: string }>(`${chain}/api/anchors/${anchor.ref}`, auth);
      expect(view.ref).toBe(anchor.ref);
      expect(view.status, anchor.ref).not.toBe('pending');
    }
  },
};

// ---------------------------------------------------------------- agent

interface ChatTurn {
  session: string;
  message: string;
  ticket: string;
}

const AGENT_SESSIONS = 3;
const ticketTitle = (message: string) => /ticket (\S+)/.exec(message)?.[1] ?? 'none';

/**
 * The scripted model: for the agent, open a ticket named in the question, then say so;
 * for a workflow's AI step, a qualification.
 */
export function crashModelStep(): ModelStep {
  return reply((request) => {
    const last = request.messages.at(-1);
    const offersTickets = request.tools.some((t) => t?.function?.name === 'createTicket');
    if (!offersTickets) return answer('Score 7/10: a good fit; ask about their current tooling first.');
    if (last?.role === 'tool') {
      const question = [...request.messages].reverse().find((m) => m.role === 'user');
      return answer(`Ticket ${ticketTitle(String(question?.content ?? ''))} is open.`);
    }
    return callTool('createTicket', { title: ticketTitle(String(last?.content ?? '')), priority: 'low' });
  });
}

export const agentChats: CrashScenario<ChatTurn> = {
  service: 'agent',
  writes: 'chat turns that open tickets',
  workers: 3,
  async write(ctx, n) {
    const session = `crash-${run}-${n % AGENT_SESSIONS}`;
    const ticket = `T${run}n${n}`;
    const message = `Please open ticket ${ticket} for me.`;
    const response = await request(`${ctx.platform.url('agent')}/api/chat?session=${session}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    const text = await response.text();
    if (!text.includes(`Ticket ${ticket} is open.`)) throw new Error(`unexpected answer: ${text}`);
    return { session, message, ticket };
  },
  async verify(ctx, acknowledged) {
    const agent = ctx.platform.url('agent');
    for (let s = 0; s < AGENT_SESSIONS; s++) {
      const session = `crash-${run}-${s}`;
      const state = await getJson<{ messages: { id: string; role: string; content: string }[] }>(
        `${agent}/api/state?session=${session}`,
      );
      const messages = state.messages;
      expect(new Set(messages.map((m) => m.id)).size, `${session}: message ids`).toBe(messages.length);
      // Whole turns only: question, answer, question, answer…
      expect(messages.length % 2, `${session}: a turn half-stored`).toBe(0);
      messages.forEach((m, i) => {
        expect(m.role, `${session} message ${i}`).toBe(i % 2 === 0 ? 'user' : 'assistant');
      });
      for (const turn of acknowledged.filter((t) => t.session === session)) {
        const at = messages.findIndex((m) => m.content === turn.message);
        expect(at, turn.message).toBeGreaterThanOrEqual(0);
        expect(messages.filter((m) => m.content === turn.message)).toHaveLength(1);
        expect(messages[at + 1]?.content).toContain(`Ticket ${turn.ticket} is open.`);
      }
    }
    // The ticket each acknowledged turn opened is there, once (the API lists the newest 100). A caller
    // without cookies sees the tickets opened in the session id it names.
    const listed = new Set<string>();
    for (let s = 0; s < AGENT_SESSIONS; s++) {
      const { tickets } = await getJson<{ tickets: { title: string }[] }>(
        `${agent}/api/tickets?session=crash-${run}-${s}`,
      );
      for (const ticket of tickets) listed.add(ticket.title);
    }
    for (const turn of acknowledged.slice(-20)) expect(listed.has(turn.ticket), turn.ticket).toBe(true);
    await withDatabase(ctx, 'agent', async (db) => {
      const rows = await db.rows('SELECT title, COUNT(*) AS n FROM agent_tickets GROUP BY title');
      const stored = new Map(rows.map((r) => [r.title as string, Number(r.n)]));
      for (const turn of acknowledged) expect(stored.get(turn.ticket), turn.ticket).toBe(1);
    });
  },
};

// ---------------------------------------------------------------- orchestration

type OrchestrationWrite = { kind: 'lead'; email: string } | { kind: 'run'; email: string; runId: string };

export const orchestrationWrites: CrashScenario<OrchestrationWrite> = {
  service: 'orchestration',
  writes: 'leads and workflow runs',
  workers: 4,
  async write(ctx, n) {
    const orch = ctx.platform.url('orchestration');
    const email = `lead-${run}-${n}@acme-corp.test`;
    if (n % 2 === 0) {
      await postJson(`${orch}/api/lead`, { name: `Lead ${n}`, email, company: 'Acme Corp' });
      return { kind: 'lead', email };
    }
    const result = await postJson<{ runId: string; status: string }>(`${orch}/api/wf`, {
      workflow: 'qualify-lead',
      input: { name: `Lead ${n}`, email, company: 'Acme Corp', need: 'automation' },
      idemKey: `crash-${run}-${n}`,
    });
    if (result.status !== 'done') throw new Error(`run ${result.runId} is ${result.status}`);
    return { kind: 'run', email, runId: result.runId };
  },
  async verify(ctx, acknowledged) {
    const orch = ctx.platform.url('orchestration');
    const { leads } = await getJson<{ leads: { email: string }[] }>(`${orch}/api/leads?limit=500`, {
      authorization: `Bearer ${ctx.orchestrationAdminToken}`,
    });
    // The API lists the newest 500; the database holds them all.
    const listed = new Set(leads.map((l) => l.email));
    for (const write of acknowledged.slice(-20)) expect(listed.has(write.email), write.email).toBe(true);
    for (const write of spread(acknowledged)) {
      if (write.kind !== 'run') continue;
      const record = await getJson<{ run: { status: string }; steps: { step_id: string; status: string }[] }>(
        `${orch}/api/wf?id=${write.runId}`,
      );
      expect(record.run.status, write.runId).toBe('done');
      expect(record.steps.map((s) => [s.step_id, s.status])).toEqual([
        ['save', 'ok'],
        ['qualify', 'ok'],
      ]);
    }
    await withDatabase(ctx, 'orchestration', async (db) => {
      const stored = new Set((await db.rows('SELECT email FROM leads')).map((r) => r.email));
      for (const write of acknowledged) expect(stored.has(write.email), write.email).toBe(true);
      const runStatus = new Map(
        (await db.rows('SELECT run_id, status FROM wf_runs')).map((r) => [r.run_id, r.status]),
      );
      for (const write of acknowledged)
        if (write.kind === 'run') expect(runStatus.get(write.runId), write.runId).toBe('done');
      // Runs the kill abandoned are resumed at start and finish.
      await waitFor(
        async () => count(await db.rows(`SELECT COUNT(*) AS n FROM wf_runs WHERE status = 'running'`)) === 0,
        'abandoned workflow runs to be resumed and finished',
        30_000,
      );
      const runs = await db.rows('SELECT run_id, status FROM wf_runs');
      const steps = await db.rows('SELECT run_id, step_id, position FROM wf_steps ORDER BY run_id, position');
      for (const runRow of runs) {
        const own = steps.filter((s) => s.run_id === runRow.run_id);
        // Every step once, in order, none skipped: positions 0, 1, …
        expect(
          own.map((s) => Number(s.position)),
          String(runRow.run_id),
        ).toEqual(own.map((_, i) => i));
        expect(new Set(own.map((s) => s.step_id)).size).toBe(own.length);
        if (runRow.status === 'done') expect(own.map((s) => s.step_id)).toEqual(['save', 'qualify']);
      }
    });
  },
};

export const CRASH_SCENARIOS = [
  identityRegistrations,
  knowledgePushes,
  trustSeals,
  chainAnchors,
  agentChats,
  orchestrationWrites,
] as CrashScenario<unknown>[];
