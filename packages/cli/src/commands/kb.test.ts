/**
 * `xv kb sync` tells the truth per file: after pushing, each file's state as the
 * running knowledge service holds it (approved, waiting for review, rejected with
 * the reviewer's note, draft), and progress on a large vault.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startIdentity } from '@xv/identity/testing';
import { createToken, signUpMakerAndReviewer, startKnowledge } from '@xv/knowledge/testing';
import { describeEachDatabase, type RunningService, tempDir } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { describeState, kbCommand } from './kb.js';

describeEachDatabase('xv kb sync reports states', (target) => {
  let kb: RunningService;
  let token: string;
  let reviewerCookie: string;
  let vault: string;
  const run = async (...flags: string[]) => {
    const lines: string[] = [];
    const code = await kbCommand(['sync', vault, ...flags], { XV_KB_URL: kb.url, XV_KB_TOKEN: token }, (l) =>
      lines.push(l),
    );
    return { code, lines };
  };
  const decide = async (docId: string, decision: 'approve' | 'reject', note?: string) => {
    const response = await fetch(`${kb.url}/api/review/decide`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: reviewerCookie },
      body: JSON.stringify({ docId, decision, ...(note ? { note } : {}) }),
    });
    expect(response.status).toBe(200);
  };
  const docIdOf = async (path: string): Promise<string> => {
    const response = await fetch(`${kb.url}/api/sync/manifest`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { documents } = (await response.json()) as { documents: { path: string; docId: string }[] };
    return documents.find((d) => d.path === path)!.docId;
  };

  beforeAll(async () => {
    const identity = await startIdentity(await target.open('identity'));
    kb = await startKnowledge(await target.open('knowledge'), identity.url);
    const { maker, reviewer } = await signUpMakerAndReviewer(identity.url, `cli${Date.now().toString(36)}`);
    token = await createToken(kb.url, maker.cookie, ['sync']);
    reviewerCookie = reviewer.cookie;
    vault = tempDir('xv-vault-');
    mkdirSync(join(vault, 'notes'));
    for (let n = 1; n <= 21; n++)
      writeFileSync(join(vault, 'notes', `${String(n).padStart(2, '0')}.md`), `# Note ${n}\n\nText ${n}.`);
    writeFileSync(join(vault, 'leave.md'), '# Leave\n\nTwenty-five days.');
  });

  it('prints progress on a vault of more than 20 files and every file as waiting for review', async () => {
    const { code, lines } = await run();
    expect(code).toBe(0);
    expect(lines[0]).toBe('[1/22] leave.md');
    expect(lines).toContain('[22/22] notes/21.md');
    expect(lines).toContain('+ leave.md');
    expect(lines).toContain('= leave.md: waiting for review');
    expect(lines).toContain('= notes/21.md: waiting for review');
    expect(lines.at(-1)).toBe('22 new, 0 changed, 0 unchanged, 0 retired, 0 failed');
  });

  it('tells approved, rejected with the reviewer’s note, and draft apart', async () => {
    await decide(await docIdOf('leave.md'), 'approve');
    await decide(await docIdOf('notes/01.md'), 'reject', 'Say which team this is for.');
    writeFileSync(join(vault, 'draft.md'), '# Draft\n\nNot yet.');
    const { code, lines } = await run('--no-submit');
    expect(code).toBe(0);
    expect(lines).toContain('= leave.md: approved');
    expect(lines).toContain('= notes/01.md: rejected: Say which team this is for.');
    expect(lines).toContain('= notes/02.md: waiting for review');
    expect(lines).toContain('= draft.md: draft (not submitted)');
    expect(lines.at(-1)).toBe('1 new, 0 changed, 22 unchanged, 0 retired, 0 failed');
  });

  it('keeps small vaults free of progress lines', async () => {
    const small = tempDir('xv-vault-');
    writeFileSync(join(small, 'one.md'), '# One');
    const lines: string[] = [];
    await kbCommand(['sync', small, '--keep-deleted'], { XV_KB_URL: kb.url, XV_KB_TOKEN: token }, (l) =>
      lines.push(l),
    );
    expect(lines.some((l) => l.startsWith('['))).toBe(false);
    expect(lines).toContain('= one.md: waiting for review');
  });
});

it('describes a state in words', () => {
  expect(describeState({ state: 'under_review' })).toBe('waiting for review');
  expect(describeState({ state: 'rejected', note: 'Too vague.' })).toBe('rejected: Too vague.');
});
