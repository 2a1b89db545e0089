/**
 * Test helpers: the real identity service and the knowledge service side by
 * side, with the people the Maker-Checker tests need, and small HTTP wrappers.
 */
import { createHash } from 'node:crypto';
import { createUser, type SignedIn, signUp, startIdentity } from '@xv/identity/testing';
import { createLogger, loadSettings, migrate, openDatabase } from '@xv/platform';
import type { DatabaseTarget, RunningService } from '@xv/platform/testing';
import type { Caller } from '../src/access/caller.js';
import type { KnowledgeTables } from '../src/db.js';
import { contentHash } from '../src/documents/hash.js';
import { ReviewWorkflow } from '../src/documents/review.js';
import { migrations } from '../src/migrations/index.js';
import { openKnowledgeIndex } from '../src/search/open-index.js';
import { loadVectorExtension } from '../src/search/vector-index.js';
import { knowledgeSettings } from '../src/settings.js';
import {
  createToken as createTokenAt,
  publishDocument,
  signUpMakerAndReviewer,
  startKnowledge,
} from '../src/testing/index.js';

export interface World {
  identity: RunningService;
  kb: RunningService;
  /** Admin of Acme: holds review:decide, and is the maker in most tests. */
  maker: SignedIn;
  /** Reviewer of Acme. */
  reviewer: SignedIn;
  /** Plain member of Acme: no review:decide. */
  member: SignedIn;
  /** Admin of another organization. */
  outsider: SignedIn;
  /** Reviewer of the other organization. */
  outsiderReviewer: SignedIn;
  tokens: {
    sync: string;
    read: string;
    both: string;
    outsiderBoth: string;
    reviewerSync: string;
  };
}

let counter = 0;

export async function startWorld(target: DatabaseTarget, env: Record<string, string> = {}): Promise<World> {
  const identity = await startIdentity(await target.open('identity'));
  const kb = await startKnowledge(await target.open('knowledge'), identity.url, env);
  const tag = `${Date.now().toString(36)}${counter++}`;
  const { maker, reviewer } = await signUpMakerAndReviewer(identity.url, tag);
  const member = await createUser(identity.url, maker.cookie, {
    email: `member-${tag}@acme.test`,
    password: 'secret-pass-3',
    name: 'Max Member',
    role: 'member',
  });
  const outsider = await signUp(identity.url, {
    email: `outsider-${tag}@globex.test`,
    password: 'secret-pass-4',
    name: 'Olga Outsider',
    orgName: 'Globex',
  });
  const outsiderReviewer = await createUser(identity.url, outsider.cookie, {
    email: `outsider-reviewer-${tag}@globex.test`,
    password: 'secret-pass-5',
    name: 'Otto Reviewer',
    role: 'reviewer',
  });
  const world = { identity, kb, maker, reviewer, member, outsider, outsiderReviewer } as World;
  world.tokens = {
    sync: await createToken(world, maker, ['sync']),
    read: await createToken(world, maker, ['ai:read']),
    both: await createToken(world, maker, ['sync', 'ai:read']),
    outsiderBoth: await createToken(world, outsider, ['sync', 'ai:read']),
    reviewerSync: await createToken(world, reviewer, ['sync']),
  };
  return world;
}

export function createToken(world: World, who: SignedIn, scopes: string[]): Promise<string> {
  return createTokenAt(world.kb.url, who.cookie, scopes);
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export interface Call {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field.
  body: any;
}

async function call(kb: RunningService, path: string, init: RequestInit): Promise<Call> {
  const response = await kb.fetch(path, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}

export function withToken(kb: RunningService, token: string | undefined, path: string, body?: unknown) {
  return call(kb, path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

export function withCookie(kb: RunningService, who: SignedIn, path: string, body?: unknown, method?: string) {
  return call(kb, path, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: {
      cookie: who.cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Pushes, submits and has the reviewer approve a document; returns its docId. */
export function publish(
  world: World,
  path: string,
  content: string,
  token = world.tokens.sync,
  reviewer = world.reviewer,
) {
  return publishDocument(world.kb.url, { token, reviewerCookie: reviewer.cookie }, { path, content });
}

export function search(world: World, token: string, query: string, topK?: number) {
  return withToken(world.kb, token, '/api/ai/search', { query, ...(topK === undefined ? {} : { topK }) });
}

/** A caller as the domain sees one, for tests that skip HTTP: a reviewer of `orgId` holding `sync`. */
export const domainCaller = (userId: string, orgId: string): Caller => ({
  userId,
  email: `${userId}@example.test`,
  orgId,
  via: 'session',
  scopes: ['sync'],
  permissions: ['review:decide'],
});

/** Pushes, submits and approves a document through the domain: `usr_maker` makes it, `usr_checker` approves. */
export async function approveThroughDomain(
  store: ReviewWorkflow,
  orgId: string,
  path: string,
  content: string,
) {
  const { docId } = await store.push(domainCaller('usr_maker', orgId), {
    path,
    content,
    hash: contentHash(content),
  });
  await store.submit(domainCaller('usr_maker', orgId), docId);
  await store.decide(domainCaller('usr_checker', orgId), docId, 'approve');
  return docId;
}

/**
 * Approves one document straight through the domain (no HTTP, no identity), in
 * the SQLite database of `dataDir`, then closes it: a database with vectors in it
 * for the tests of what happens when the service or the CLI opens it again.
 */
export async function approveDirectly(
  dataDir: string,
  env: Record<string, string>,
  document: { path: string; content: string },
) {
  const database = await openDatabase<KnowledgeTables>({ service: 'knowledge', dataDir });
  loadVectorExtension(database);
  await migrate(database, migrations);
  const index = await openKnowledgeIndex(
    database,
    loadSettings(knowledgeSettings, env),
    createLogger('kb', 'silent'),
  );
  await approveThroughDomain(new ReviewWorkflow(database, index), 'org_x', document.path, document.content);
  await database.close();
}
