/**
 * A person's journey across the whole platform, in a real browser (Debian's
 * Chromium through playwright-core), against the six services each running as its
 * own process exactly as `npm start` runs them: the launcher starts
 * `node services/<name>/dist/main.js` per service with one shared environment; the
 * harness does the same with the compiled entry points when the build is up to
 * date (CI builds first) and otherwise runs the same `main.ts` from the sources
 * through tsx (see e2e/support/platform.ts). Only the hosted model is replaced, by
 * the scripted model server speaking the real OpenAI wire protocol.
 *
 * 1. Ada registers her company, turns on 2FA (QR code, code from an authenticator)
 *    and creates a personal access token on the knowledge base's token page.
 * 2. The desktop client (`xv kb sync`) pushes her Markdown vault with that token.
 * 3. Rae registers, Ada adds her as `reviewer`, and Rae approves the documents on
 *    the review pages (Ada, their maker, cannot).
 * 4. The agent answers a question on its chat page through `knowledgeBaseSearch`
 *    searching as Ada herself (her shared session), from the approved document.
 * 5. The answer is sealed with Ada's session, anchored on the dev chain through the
 *    relayer, and a stranger checks it on the public verify page.
 * 6. Ada offers a credential to her wallet on `/account/credentials`; the wallet
 *    (`@openid4vc/openid4vci`) redeems it with the PIN and the identity service
 *    verifies its presentation.
 *
 * Every page visited is kept as a screenshot under test-results/journey/<database>/.
 * The journey runs once per database pass (`testDatabaseTargets()`): SQLite in
 * `npm test`, PostgreSQL in CI's second pass.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newWallet } from '@xv/identity/testing';
import {
  answer,
  callTool,
  hasChromium,
  launchBrowser,
  reply,
  screenshots,
  testDatabaseTargets,
} from '@xv/platform/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runXv } from './support/journey-cli.js';
import {
  addMember,
  approve,
  askAgent,
  createAccessToken,
  definition,
  enableTwoFactor,
  makeActive,
  makeWalletOffer,
  type Person,
  register,
  reviewQueue,
  stepUpWithCode,
} from './support/journey-pages.js';
import { type Platform, startPlatform, waitFor } from './support/platform.js';

const run = Date.now().toString(36);
const ada: Person = {
  name: 'Ada Nguyen',
  email: `ada-${run}@lotus-logistics.test`,
  password: 'correct horse battery',
  orgName: 'Lotus Logistics',
};
const rae: Person = {
  name: 'Rae Tran',
  email: `rae-${run}@lotus-logistics.test`,
  password: 'staple of review',
  orgName: 'Rae Consulting',
};

/** The vault on Ada's desktop. */
const VAULT: Record<string, string> = {
  'Policies/annual-leave.md':
    '# Annual leave\n\nEvery employee of Lotus Logistics has twenty-seven days of paid annual leave a year. ' +
    'Unused days carry over until the end of March.\n',
  'Onboarding/first-week.md':
    '# Your first week\n\nOn day one you meet your buddy, collect your laptop and sign the data protection pledge.\n',
  '.obsidian/workspace.md': 'editor state, not knowledge',
};
const LEAVE_FACT = 'twenty-seven days of paid annual leave';
const QUESTION = 'How many days of annual leave do we get?';

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/** What a tool message carries on the OpenAI wire (a JSON string, or text parts). */
function toolOutput(message: { content: unknown }): unknown {
  const text = Array.isArray(message.content)
    ? message.content.map((part: { text?: string }) => part.text ?? '').join('')
    : String(message.content ?? '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface Hit {
  docId: string;
  title: string;
  text: string;
}

for (const target of testDatabaseTargets()) {
  describe.runIf(hasChromium())(`a person's journey across the platform [${target.dialect}]`, () => {
    let platform: Platform;
    let browser: Browser;
    let adaContext: BrowserContext;
    let raeContext: BrowserContext;
    let adaPage: Page;
    let raePage: Page;
    const shoot = screenshots(`journey/${target.dialect}`);
    const url = (service: Parameters<Platform['url']>[0]) => platform.url(service);
    let vault = '';
    const startedAt = Date.now();

    // What the journey learns on the way.
    let orgId = '';
    let syncToken = '';
    let documents: { title: string; docId: string }[] = [];
    let agentAnswer = '';
    let receipt: Record<string, unknown> & { receiptId: string; anchor: Record<string, string> };

    // Each step builds on the one before: after a failure the rest are skipped, not failed again.
    let broken = false;
    const step = (name: string, body: () => Promise<void>, timeout = 60_000) =>
      it(name, { timeout }, async (context) => {
        if (broken) context.skip();
        try {
          await body();
        } catch (error) {
          broken = true;
          throw error;
        }
      });

    beforeAll(async () => {
      vault = mkdtempSync(join(tmpdir(), 'xv-journey-vault-'));
      const databaseUrl = target.dialect === 'postgres' ? process.env.XV_TEST_DATABASE_URL : undefined;
      [platform, browser] = await Promise.all([
        startPlatform({ compiled: true, ...(databaseUrl ? { databaseUrl } : {}) }),
        launchBrowser(),
      ]);
      console.info(
        `journey [${target.dialect}]: ${platform.instances.map((i) => `${i.service} from ${i.entry}`).join(', ')}`,
      );
      adaContext = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      raeContext = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      for (const context of [adaContext, raeContext]) context.setDefaultTimeout(20_000);
      adaPage = await adaContext.newPage();
      raePage = await raeContext.newPage();
    });

    afterAll(async () => {
      if (broken && platform)
        for (const instance of platform.instances)
          console.error(`--- ${instance.service}#${instance.index}\n${instance.output.slice(-30).join('')}`);
      await browser?.close();
      await platform?.stop();
      if (vault) rmSync(vault, { recursive: true, force: true });
      console.info(`journey [${target.dialect}]: ${((Date.now() - startedAt) / 1000).toFixed(1)} s in all`);
    });

    step('Ada registers her company on /register and lands on /account at AAL1', async () => {
      await register(adaPage, url('identity'), ada, () => shoot(adaPage, 'register'));
      expect(await adaPage.locator('#session-aal').textContent()).toBe('AAL1');
      const row = adaPage.getByRole('row').filter({ hasText: ada.orgName });
      expect(await row.getByRole('cell').nth(1).textContent()).toBe('admin');
      const session = await (await adaContext.request.get(`${url('identity')}/api/session`)).json();
      orgId = session.memberships[0].org_id;
      expect(orgId).toMatch(/^org_/);
      await shoot(adaPage, 'account');
    });

    step(
      'she turns on 2FA from the QR code (ten recovery codes), then signs in again with it at AAL2',
      async () => {
        const enrolled = await enableTwoFactor(adaPage, url('identity'), ada.password, () =>
          shoot(adaPage, 'two-factor-qr'),
        );
        expect(enrolled.qrCodes).toBe(1);
        expect(enrolled.secret).toMatch(/^[A-Z2-7]{16,}$/);
        expect(enrolled.recoveryCodes).toHaveLength(10);
        await shoot(adaPage, 'two-factor-recovery-codes');
        // Enrolling a factor does not raise the session that enrolled it: the next sign-in uses it.
        await adaPage.reload();
        expect(await adaPage.locator('#session-aal').textContent()).toBe('AAL1');
        await stepUpWithCode(adaPage, url('identity'), ada, enrolled.secret);
        expect(await adaPage.locator('#session-aal').textContent()).toBe('AAL2');
        expect(await adaPage.getByText('signed in with pwd + otp').count()).toBe(1);
      },
    );

    step(
      'she creates a personal access token with the sync scope on the knowledge base token page',
      async () => {
        syncToken = await createAccessToken(adaPage, url('knowledge'), 'Desktop vault', ['sync']);
        expect(syncToken).toMatch(/^xkb_/);
        expect(await adaPage.getByRole('row').filter({ hasText: 'Desktop vault' }).textContent()).toContain(
          'sync',
        );
        await shoot(adaPage, 'kb-token-sync');
      },
    );

    step(
      'the desktop client (xv kb sync) pushes her vault with the token and submits it for review',
      async () => {
        for (const [path, content] of Object.entries(VAULT)) {
          mkdirSync(join(vault, path, '..'), { recursive: true });
          writeFileSync(join(vault, path), content);
        }
        const sync = await runXv(['kb', 'sync', vault], {
          XV_KB_URL: url('knowledge'),
          XV_KB_TOKEN: syncToken,
        });
        console.info(`journey [${target.dialect}]: xv kb sync ran from ${sync.entry}:\n${sync.output}`);
        expect(sync.code, sync.output).toBe(0);
        expect(sync.output).toContain('+ Onboarding/first-week.md');
        expect(sync.output).toContain('+ Policies/annual-leave.md');
        expect(sync.output).toContain('2 new, 0 changed, 0 unchanged, 0 retired, 0 failed');

        // Ada sees her documents waiting, and cannot approve what she made herself (Maker-Checker).
        documents = await reviewQueue(adaPage, url('knowledge'));
        expect(documents.map((d) => d.title).sort()).toEqual(['Annual leave', 'Your first week']);
        await shoot(adaPage, 'kb-review-queue-maker');
        await adaPage.goto(`${url('knowledge')}/review/${documents[0]!.docId}`);
        expect(await adaPage.getByRole('button', { name: 'Approve' }).count()).toBe(0);
        expect(await adaPage.getByText('You made this revision').count()).toBe(1);
        await shoot(adaPage, 'kb-document-maker');
      },
    );

    step(
      'Rae registers, Ada adds her as reviewer on /account, and Rae makes the company active',
      async () => {
        await register(raePage, url('identity'), rae);
        expect(await addMember(adaPage, url('identity'), rae.email, 'reviewer')).toBe('reviewer');
        await shoot(adaPage, 'account-members');
        expect(await makeActive(raePage, url('identity'), ada.orgName)).toBe('reviewer');
        await shoot(raePage, 'reviewer-account');
      },
    );

    step('Rae approves both documents on the review pages; the queue is then empty', async () => {
      expect((await reviewQueue(raePage, url('knowledge'))).map((d) => d.docId).sort()).toEqual(
        documents.map((d) => d.docId).sort(),
      );
      await shoot(raePage, 'kb-review-queue');
      for (const [index, doc] of documents.entries()) {
        const state = await approve(
          raePage,
          url('knowledge'),
          doc.docId,
          'Checked against the handbook.',
          () => (index === 0 ? shoot(raePage, 'kb-review-document') : Promise.resolve()),
        );
        expect(state).toBe('approved');
      }
      await shoot(raePage, 'kb-document-approved');
      expect(await reviewQueue(raePage, url('knowledge'))).toEqual([]);
      expect(await raePage.getByText('Nothing is waiting for review.').count()).toBe(1);
    });

    step(
      'the agent answers on its chat page from the approved document, found through knowledgeBaseSearch',
      async () => {
        // The agent searches as the signed-in person: Ada's own session, in her active organization
        // (docs/agent.md); her browser sends the shared session cookie to the agent too.
        platform.model.reset();
        platform.model.script(
          callTool('knowledgeBaseSearch', { query: 'annual leave days' }),
          // The answer is written from what the model was shown: the tool's result.
          reply(({ messages }) => {
            const result = toolOutput(messages.find((m: { role: string }) => m.role === 'tool') ?? {});
            const hit = (result as { hits?: Hit[] }).hits?.[0];
            return answer(
              hit ? `According to "${hit.title}": ${hit.text.trim()}` : 'I found nothing about that.',
            );
          }),
        );
        const chat = await askAgent(adaPage, url('agent'), QUESTION);
        await shoot(adaPage, 'agent-chat');
        expect(chat.failed, chat.text).toBe(false);
        expect(chat.tools).toEqual(['knowledgeBaseSearch']);
        expect(chat.text).toContain('According to "Annual leave"');
        expect(chat.text).toContain(LEAVE_FACT);
        agentAnswer = chat.text;

        // What the knowledge base really returned to the agent: the approved document's text.
        const [first, second] = platform.model.requests;
        expect(first!.tools.map((t: { function: { name: string } }) => t.function.name)).toContain(
          'knowledgeBaseSearch',
        );
        expect(JSON.stringify(first!.messages)).toContain(QUESTION);
        const toolMessage = second!.messages.find((m: { role: string }) => m.role === 'tool');
        const hits = (toolOutput(toolMessage) as { hits: Hit[] }).hits;
        const leave = documents.find((d) => d.title === 'Annual leave')!;
        expect(hits[0]).toMatchObject({ docId: leave.docId, title: 'Annual leave' });
        expect(hits[0]!.text).toContain(LEAVE_FACT);
      },
      90_000,
    );

    step(
      "the answer is sealed with Ada's session (AAL2) and anchored on chain through the relayer",
      async () => {
        const response = await adaContext.request.post(`${url('trust')}/api/seal`, {
          data: { modelId: 'scripted', output: agentAnswer, input: { question: QUESTION }, anchorNow: true },
          timeout: 30_000,
        });
        expect(response.status(), await response.text()).toBe(200);
        receipt = await response.json();
        expect(receipt).toMatchObject({
          receiptId: expect.stringMatching(/^rcpt_/),
          issuerId: orgId,
          issuerName: ada.orgName,
          authLevel: 'AAL2',
          outputHash: sha256(agentAnswer),
          anchor: { mode: 'onchain', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
        });
      },
    );

    step(
      'a stranger opens {trust}/verify/<receiptId>: valid, intact, the issuer and the on-chain transaction',
      async () => {
        const stranger = await browser.newPage({ viewport: { width: 1100, height: 900 } });
        const page = `${url('trust')}/verify/${receipt.receiptId}`;
        await stranger.goto(page);
        // The relayer reports the transaction once mined: at most a few polls of the page.
        await waitFor(
          async () => {
            if ((await definition(stranger, 'On chain').textContent())?.startsWith('Yes')) return true;
            await stranger.reload();
            return false;
          },
          'the anchor to be confirmed on the verify page',
          30_000,
        );
        const verdict = stranger.locator('p.verdict');
        expect(await verdict.getAttribute('class')).toContain('valid');
        expect(await verdict.textContent()).toContain(
          'Valid: the signatures match and the record is intact.',
        );
        expect(await definition(stranger, 'Integrity').textContent()).toBe('intact');
        expect(await definition(stranger, 'Organization').textContent()).toBe(ada.orgName);
        expect(await definition(stranger, 'DID').textContent()).toMatch(/^did:/);
        expect(await definition(stranger, 'Sign-in level').textContent()).toBe('AAL2');
        expect(await definition(stranger, 'Output hash').textContent()).toBe(sha256(agentAnswer));
        expect(await definition(stranger, 'On chain').textContent()).toMatch(/^Yes, \d+ confirmation/);
        const transaction = definition(stranger, 'Transaction');
        expect(await transaction.textContent()).toBe(receipt.anchor.txHash);
        await shoot(stranger, 'trust-verify');

        // The transaction link leads to the relayer's explorer page for it.
        await transaction.getByRole('link').click();
        await stranger.waitForURL(`**/tx/${receipt.anchor.txHash}`);
        expect(await stranger.content()).toContain(receipt.anchor.txHash);
        await shoot(stranger, 'chain-transaction');
        await stranger.close();
      },
    );

    step(
      'Ada offers a membership credential to her wallet with a PIN; the wallet redeems it and it verifies',
      async () => {
        const offer = await makeWalletOffer(adaPage, url('identity'), `Membership of ${ada.orgName} (admin)`);
        expect(offer.qrCodes).toBe(1);
        expect(offer.pin).toMatch(/^\d{4}$/);
        // The page links (and its QR code holds) the short by-reference offer URI.
        expect(offer.offerUri).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
        await shoot(adaPage, 'credentials-wallet-offer');

        const wallet = newWallet();
        const { configurationIds, sdjwt } = await wallet.redeem(offer.offerUri, offer.pin);
        expect(configurationIds).toEqual(['MembershipCredential']);

        const verifier = { nonce: `journey-${run}`, aud: 'https://verifier.lotus-logistics.test' };
        const presented = await wallet.present(sdjwt, verifier);
        const response = await fetch(`${url('identity')}/api/did/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: presented, ...verifier }),
          signal: AbortSignal.timeout(10_000),
        });
        expect(response.status).toBe(200);
        const identityHost = new URL(url('identity')).host.replace(':', '%3A');
        expect(await response.json()).toMatchObject({
          valid: true,
          iss: `did:web:${identityHost}`,
          vct: `${url('identity')}/vc/MembershipCredential`,
          payload: { org_id: orgId, org_name: ada.orgName, role: 'admin', cnf: { jwk: wallet.publicJwk } },
        });

        // The credential now shows on her credentials page, valid.
        await adaPage.goto(`${url('identity')}/account/credentials`);
        const row = adaPage.getByRole('row').filter({ hasText: 'MembershipCredential' });
        expect(await row.textContent()).toContain('valid');
        await shoot(adaPage, 'credentials-list');
      },
    );
  });
}
