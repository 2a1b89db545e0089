/**
 * @module @xv/knowledge/testing
 * Helpers for tests of any XV service that need a real knowledge base with
 * approved documents in it: they drive the REAL knowledge service over HTTP,
 * exactly as the desktop sync client and a reviewer's browser would.
 *
 * ```ts
 * import { startIdentity } from '@xv/identity/testing';
 * import { createToken, publishDocument, signUpMakerAndReviewer, startKnowledge } from '@xv/knowledge/testing';
 * const identity = await startIdentity(await target.open('identity'));
 * const kb = await startKnowledge(await target.open('knowledge'), identity.url);
 * const { maker, reviewer } = await signUpMakerAndReviewer(identity.url, 'run1');
 * const token = await createToken(kb.url, maker.cookie, ['sync', 'ai:read']);
 * const docId = await publishDocument(kb.url, { token, reviewerCookie: reviewer.cookie }, { path: 'a.md', content: '# A' });
 * // then point your service at it: env { XV_KB_URL: kb.url, … token }
 * ```
 *
 * - `startKnowledge(database, identityUrl, env?)` → RunningService: the knowledge service on a
 *   free port, trusting the identity service at `identityUrl`.
 * - `signUpMakerAndReviewer(identityUrl, tag)` → `{ maker, reviewer }`: the two people of
 *   Maker-Checker, each `{ cookie, session }`: Mia Maker signs up Acme (so is its admin) and
 *   adds Rae Reviewer as its reviewer; `tag` keeps their addresses unique
 *   (`maker-<tag>@acme.test`, `reviewer-<tag>@acme.test`).
 * - `createToken(kbUrl, cookie, scopes, name?)` → the secret of a new personal access token
 *   of the signed-in person (`POST /api/tokens`).
 * - `publishDocument(kbUrl, { token, reviewerCookie }, { path, content })` → docId: pushes the
 *   document with a `sync` token, submits it for review and has the reviewer approve it.
 */
import { createUser, type SignedIn, signUp } from '@xv/identity/testing';
import type { AnyDatabase } from '@xv/platform';
import { type RunningService, startService } from '@xv/platform/testing';
import { contentHash } from '../documents/hash.js';
import { knowledgeService } from '../service.js';

export function startKnowledge(
  database: AnyDatabase,
  identityUrl: string,
  env: Record<string, string | undefined> = {},
  options: { port?: number } = {},
): Promise<RunningService> {
  return startService(knowledgeService, {
    database,
    env: { XV_IDENTITY_URL: identityUrl, ...env },
    ...options,
  }) as Promise<RunningService>;
}

export async function signUpMakerAndReviewer(
  identityUrl: string,
  tag: string,
): Promise<{ maker: SignedIn; reviewer: SignedIn }> {
  const maker = await signUp(identityUrl, {
    email: `maker-${tag}@acme.test`,
    password: 'secret-pass-1',
    name: 'Mia Maker',
    orgName: 'Acme',
  });
  const reviewer = await createUser(identityUrl, maker.cookie, {
    email: `reviewer-${tag}@acme.test`,
    password: 'secret-pass-2',
    name: 'Rae Reviewer',
    role: 'reviewer',
  });
  return { maker, reviewer };
}

async function postJson(url: string, auth: { token?: string; cookie?: string }, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}),
      ...(auth.cookie ? { cookie: auth.cookie } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

export async function createToken(
  kbUrl: string,
  cookie: string,
  scopes: string[],
  name = `token ${scopes.join('+')}`,
): Promise<string> {
  const { token } = await postJson(`${kbUrl}/api/tokens`, { cookie }, { name, scopes });
  return token;
}

export async function publishDocument(
  kbUrl: string,
  by: { token: string; reviewerCookie: string },
  document: { path: string; content: string },
): Promise<string> {
  const { token, reviewerCookie } = by;
  const { docId } = await postJson(
    `${kbUrl}/api/sync/push`,
    { token },
    {
      ...document,
      hash: contentHash(document.content),
    },
  );
  await postJson(`${kbUrl}/api/sync/submit`, { token }, { docId });
  await postJson(`${kbUrl}/api/review/decide`, { cookie: reviewerCookie }, { docId, decision: 'approve' });
  return docId;
}
