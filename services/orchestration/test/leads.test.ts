import {
  cspDirectives,
  cspNonceOf,
  describeEachDatabase,
  scriptTagsWithoutNonce,
  startService,
} from '@xv/platform/testing';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { beforeAll, describe, expect, it } from 'vitest';
import { orchestrationService } from '../src/service.js';
import { expectError, jsonInit, type RunningOrchestration, startTurnstileSiteverify } from './helpers.js';

const ADMIN_TOKEN = 'operator-token-0123456789';

describeEachDatabase('leads', (target) => {
  let service: RunningOrchestration;

  beforeAll(async () => {
    service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: { XV_ORCH_ADMIN_TOKEN: ADMIN_TOKEN, XV_ORCH_LEAD_PER_MINUTE: '100000' },
    });
  });

  const submit = (body: unknown) => service.fetch('/api/lead', jsonInit(body));
  const leads = async (query = '') => {
    const response = await service.fetch(`/api/leads${query}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(200);
    return response.json();
  };

  it('stores a lead with a work address and answers {ok:true}', async () => {
    const response = await submit({
      name: 'Ada Lovelace',
      email: 'ada@analytical.example',
      company: 'Engines Ltd',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const { leads: list } = await leads();
    expect(list[0]).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@analytical.example',
      company: 'Engines Ltd',
      tool: 'orchestration',
      submissions: 1,
    });
    expect(list[0].lead_id).toMatch(/^lead_/);
  });

  it('merges a second submission of the same address instead of adding a row', async () => {
    await submit({ name: 'Grace', email: 'grace@navy.example', company: 'Navy', tool: 'agent' });
    const again = await submit({ name: 'Grace Hopper', email: 'Grace@Navy.Example' });
    expect(await again.json()).toEqual({ ok: true });
    const matching = (await leads('?limit=500')).leads.filter(
      (l: { email: string }) => l.email === 'grace@navy.example',
    );
    expect(matching).toHaveLength(1);
    expect(matching[0]).toMatchObject({
      name: 'Grace Hopper',
      company: 'Navy',
      tool: 'orchestration',
      submissions: 2,
    });
  });

  it.each([
    [{ email: 'no-name@firm.example' }],
    [{ name: 'No Email' }],
    [{ name: '   ', email: 'blank@firm.example' }],
    [{ name: 'Bad', email: 'not-an-address' }],
    [{ name: 'Bad', email: 'two@@firm.example' }],
    [{ name: 42, email: 'typed@firm.example' }],
    [{ name: 'x'.repeat(201), email: 'long@firm.example' }],
  ])('answers 400 invalid for %j', async (body) => {
    await expectError(await submit(body), 400, 'invalid');
  });

  it.each([
    'someone@gmail.com',
    'someone@GMAIL.com',
    'someone@outlook.com',
    'someone@yahoo.co.uk',
    'someone@mailinator.com',
    'someone@10minutemail.com',
  ])('refuses the personal or disposable address %s with personal_email', async (email) => {
    await expectError(await submit({ name: 'Someone', email }), 400, 'personal_email');
  });

  it('keeps the lead list for the operator only', async () => {
    await expectError(await service.fetch('/api/leads'), 401, 'unauthenticated');
    await expectError(
      await service.fetch('/api/leads', { headers: { authorization: 'Bearer wrong-token-0123456789' } }),
      401,
      'unauthenticated',
    );
    await expectError(
      await service.fetch('/api/leads', { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } }),
      401,
      'unauthenticated',
    );
  });

  it('pages through leads newest first', async () => {
    for (const n of [1, 2, 3]) await submit({ name: `Page ${n}`, email: `page${n}@paging.example` });
    const first = await leads('?limit=2');
    expect(first.leads.map((l: { name: string }) => l.name)).toEqual(['Page 3', 'Page 2']);
    const second = await leads(`?limit=2&cursor=${first.nextCursor}`);
    expect(second.leads[0].name).toBe('Page 1');
    await expectError(
      await service.fetch('/api/leads?limit=0', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
      400,
      'invalid_request',
    );
  });

  it("answers the service's root with the lead form", async () => {
    const root = await service.fetch('/');
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<form id="lead-form" method="post" action="/lead">');
  });

  it('serves an accessible lead form and accepts it without JavaScript', async () => {
    const page = await (await service.fetch('/lead')).text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<label for="email">');
    expect(page).toContain('role="status"');
    expect(page).not.toMatch(/src="https?:/);
    const form = new URLSearchParams({ name: 'Form User', email: 'form@firm.example', company: 'Firm' });
    const sent = await service.fetch('/lead', { method: 'POST', body: form, redirect: 'manual' });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe('/lead?sent=1');
    const refused = await service.fetch('/lead', {
      method: 'POST',
      body: new URLSearchParams({ name: 'Form User', email: 'form@gmail.com' }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('work e-mail');
  });
});

describeEachDatabase('lead bot challenge: ALTCHA', (target) => {
  let service: RunningOrchestration;

  beforeAll(async () => {
    service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: { XV_LEAD_CHALLENGE: 'altcha', XV_ALTCHA_MAX_NUMBER: '2000', XV_ORCH_LEAD_PER_MINUTE: '100000' },
    });
  });

  async function solvedPayload() {
    const challenge = (await (await service.fetch('/api/lead/challenge')).json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }

  it('accepts a solved challenge once and refuses it the second time', async () => {
    const altcha = await solvedPayload();
    const first = await service.fetch(
      '/api/lead',
      jsonInit({ name: 'Bot?', email: 'human@firm.example', altcha }),
    );
    expect(first.status).toBe(200);
    await expectError(
      await service.fetch('/api/lead', jsonInit({ name: 'Bot!', email: 'bot@firm.example', altcha })),
      400,
      'challenge_reused',
    );
  });

  it('requires a challenge and refuses a forged one', async () => {
    await expectError(
      await service.fetch('/api/lead', jsonInit({ name: 'No', email: 'none@firm.example' })),
      400,
      'challenge_required',
    );
    const payload = JSON.parse(Buffer.from(await solvedPayload(), 'base64').toString());
    const key: string = payload.solution.derivedKey;
    payload.solution.derivedKey = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
    const forged = Buffer.from(JSON.stringify(payload)).toString('base64');
    await expectError(
      await service.fetch('/api/lead', jsonInit({ name: 'F', email: 'forged@firm.example', altcha: forged })),
      400,
      'challenge_failed',
    );
    await expectError(
      await service.fetch(
        '/api/lead',
        jsonInit({ name: 'G', email: 'garbage@firm.example', altcha: 'bm90IGpzb24=' }),
      ),
      400,
      'challenge_failed',
    );
  });
});

describeEachDatabase('lead bot challenge: Turnstile', (target) => {
  let service: RunningOrchestration;
  let verifications: URLSearchParams[];

  beforeAll(async () => {
    const siteverify = await startTurnstileSiteverify();
    verifications = siteverify.verifications;
    service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: { ...siteverify.env, XV_ORCH_LEAD_PER_MINUTE: '100000' },
    });
  });

  const submit = (token?: string) =>
    service.fetch(
      '/api/lead',
      jsonInit({ name: 'T', email: 't@firm.example', 'cf-turnstile-response': token }),
    );

  it('verifies the token with siteverify and refuses it a second time', async () => {
    const token = `good-${target.dialect}-token`;
    expect((await submit(token)).status).toBe(200);
    expect(verifications.at(-1)?.get('response')).toBe(token);
    expect(verifications.at(-1)?.get('remoteip')).toBe('127.0.0.1');
    await expectError(await submit(token), 400, 'challenge_reused');
  });

  it('refuses a token siteverify rejects, and a missing one', async () => {
    await expectError(await submit('bad-token'), 400, 'challenge_failed');
    await expectError(await submit(), 400, 'challenge_required');
  });

  it("the form page lets Turnstile's script and frame in, and still no inline script without the nonce", async () => {
    const response = await service.fetch('/lead');
    const html = await response.text();
    const nonce = cspNonceOf(response);
    expect(cspDirectives(response).get('script-src')).toEqual([
      "'self'",
      `'nonce-${nonce}'`,
      'https://challenges.cloudflare.com',
    ]);
    expect(cspDirectives(response).get('frame-src')).toContain('https://challenges.cloudflare.com');
    expect(html).toContain('src="https://challenges.cloudflare.com/turnstile/v0/api.js"');
    expect(scriptTagsWithoutNonce(html, nonce)).toEqual([]);
  });
});

describe('operator token guessing', () => {
  it('locks an address out after ten wrong tokens, even for the right one', async () => {
    const { openDatabase } = await import('@xv/platform');
    const { tempDir } = await import('@xv/platform/testing');
    const service = await startService(orchestrationService, {
      database: await openDatabase({ service: 'orchestration', dataDir: tempDir() }),
      env: { XV_ORCH_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    const list = (token: string) =>
      service.fetch('/api/leads', { headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 10; i += 1)
      await expectError(await list(`guess-${i}-0123456789`), 401, 'unauthenticated');
    await expectError(await list('guess-10-0123456789'), 429, 'rate_limited');
    await expectError(await list(ADMIN_TOKEN), 429, 'rate_limited');
  });
});

describe('lead rate limit', () => {
  it('answers 429 rate_limited with Retry-After past the per-IP budget', async () => {
    const { openDatabase } = await import('@xv/platform');
    const { tempDir } = await import('@xv/platform/testing');
    const service = await startService(orchestrationService, {
      database: await openDatabase({ service: 'orchestration', dataDir: tempDir() }),
      env: { XV_ORCH_LEAD_PER_MINUTE: '2' },
    });
    const submit = () => service.fetch('/api/lead', jsonInit({ name: 'R', email: 'r@firm.example' }));
    expect((await submit()).status).toBe(200);
    expect((await submit()).status).toBe(200);
    const limited = await submit();
    await expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
