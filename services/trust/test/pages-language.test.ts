/**
 * The trust pages in the reader's language: Vietnamese for a browser that asks for
 * it, English when the reader chose English (the remembered `xv_lang` switch), and
 * no English left on a Vietnamese page. The browser scripts (the proof checker and
 * the content check) speak the page's language too (real Chromium).
 */
import { LOCALE_COOKIE } from '@xv/platform/i18n';
import { shellMessages } from '@xv/platform/pages';
import {
  catalogueProblems,
  describeEachDatabase,
  englishLeftIn,
  hasChromium,
  launchBrowser,
} from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../src/client/lib/verifier.js';
import { verifierRules } from '../src/http/verdict-words.js';
import { en } from '../src/messages/en.js';
import { messages } from '../src/messages/index.js';
import { vi } from '../src/messages/vi.js';
import type { ReceiptView } from '../src/receipts/receipts.js';
import { postJson, startTrustStack, type TrustStack } from './helpers.js';

describe('the trust catalogue', () => {
  it('writes Vietnamese in NFC, with the placeholders of the English message', () => {
    expect(catalogueProblems(messages)).toEqual([]);
  });

  it('the in-browser verifier explains a verdict in the language it is given', async () => {
    const verifier = createVerifier(verifierRules, 'vi');
    expect(await verifier.verifyProof('{', {})).toMatchObject({
      status: 'malformed',
      message: 'Tệp không phải là JSON.',
    });
    const forged = { status: 'invalid', reason: 'unknown_issuer_key', claim: { issuer: { name: 'Acme' } } };
    expect(verifier.explain(forged as never)).toBe(
      '✘ Không hợp lệ: Được ký bằng một khóa mà Acme chưa từng công bố — bằng chứng này không phải của Acme.',
    );
  });
});

describeEachDatabase('trust pages in two languages', (target) => {
  let stack: TrustStack;
  let anchored: ReceiptView;
  let unanchored: ReceiptView;
  let attestationId: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    stack = await startTrustStack(target, { demo: true });
    anchored = await (
      await postJson(stack.trust, '/api/seal', { modelId: 'model-v', output: 'xin chào', anchorNow: true })
    ).json();
    unanchored = await (
      await postJson(stack.trust, '/api/seal', { modelId: 'model-v', output: { a: 1 }, input: 'câu hỏi' })
    ).json();
    attestationId = (
      await (
        await postJson(stack.trust, '/api/attestation', { schema: 's', subject: 'did:web:x', claim: 'c' })
      ).json()
    ).attestationId;
    if (hasChromium()) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Each page with its heading in each language. */
  const pages = () => [
    { path: '/', vi: vi['drop.heading'], en: en['drop.heading'] },
    { path: '/verify', vi: vi['drop.heading'], en: en['drop.heading'] },
    { path: `/verify/${anchored.receiptId}`, vi: vi['receipt.heading'], en: en['receipt.heading'] },
    { path: `/verify/${unanchored.receiptId}`, vi: vi['receipt.heading'], en: en['receipt.heading'] },
    { path: `/verify/${attestationId}`, vi: vi['attestation.heading'], en: en['attestation.heading'] },
    {
      path: '/verify/rcpt_00000000000000000000000000',
      vi: vi['notFound.heading'],
      en: en['notFound.heading'],
    },
  ];
  const heading = (html: string) => html.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]?.trim();

  it('each page answers in Vietnamese to a browser that asks for it', async () => {
    for (const page of pages()) {
      const html = await (
        await stack.trust.fetch(page.path, { headers: { 'accept-language': 'vi-VN,vi;q=0.9,en;q=0.5' } })
      ).text();
      expect(html, page.path).toContain('<html lang="vi">');
      expect(heading(html), page.path).toBe(page.vi);
    }
  });

  it('the remembered choice of English wins over a Vietnamese Accept-Language', async () => {
    for (const page of pages()) {
      const html = await (
        await stack.trust.fetch(page.path, {
          headers: { 'accept-language': 'vi', cookie: `${LOCALE_COOKIE}=en` },
        })
      ).text();
      expect(html, page.path).toContain('<html lang="en">');
      expect(heading(html), page.path).toBe(page.en);
    }
  });

  it('a Vietnamese page shows no English message of the catalogue', async () => {
    for (const page of pages()) {
      const html = await (
        await stack.trust.fetch(page.path, { headers: { 'accept-language': 'vi' } })
      ).text();
      expect(englishLeftIn(html, [messages, shellMessages]), page.path).toEqual([]);
    }
  });

  it('a receipt page in Vietnamese labels its states and counts in Vietnamese', async () => {
    const html = await (
      await stack.trust.fetch(`/verify/${anchored.receiptId}`, { headers: { 'accept-language': 'vi' } })
    ).text();
    expect(html).toContain(vi['verdict.valid'].replace('{issuer}', 'XV Demo Organization'));
    expect(html).toMatch(/data-integrity="intact">nguyên vẹn</);
    // The moment of sealing, written as a Vietnamese reader writes dates.
    expect(html).toMatch(/<time datetime="[^"]+" data-style="dateTime">[^<]*thg[^<]*<\/time>/);
  });

  it.runIf(hasChromium())(
    'the proof checker and the content check speak Vietnamese on a Vietnamese page, and English is remembered once chosen',
    async () => {
      const context = await browser!.newContext({ locale: 'vi-VN' });
      const page = await context.newPage();
      const base = stack.trust.url.replace('127.0.0.1', 'localhost');
      await page.goto(`${base}/verify`);
      await page.setInputFiles('#proof-file', {
        name: 'bien-nhan.proof.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(anchored.manifest)),
      });
      await page.waitForSelector('#result [data-status="valid"]');
      const result = await page.textContent('#result');
      expect(result).toContain('✔ Hợp lệ: các chữ ký khớp');
      expect(result).toContain(vi['check.issuerNamed']);
      expect(result).toContain(vi['check.p256']);
      await page.setInputFiles('#proof-file', {
        name: 'hong.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{'),
      });
      await page.waitForSelector('#result [data-status="malformed"]');
      expect(await page.textContent('#result')).toBe('✘ Không hợp lệ: Tệp không phải là JSON.');

      await page.goto(`${base}/verify/${anchored.receiptId}`);
      await page.getByLabel(vi['content.paste']).fill('xin chào');
      await page.getByRole('button', { name: vi['content.checkPasted'] }).click();
      await page.waitForSelector('#content-result [data-match="yes"]');
      expect(await page.textContent('#content-result')).toContain(
        'Văn bản đã dán khớp với nội dung đã niêm phong',
      );

      // The switch is remembered: English from now on, on this page and the next.
      await page.getByRole('link', { name: 'English' }).click();
      await page.waitForURL(`${base}/verify/${anchored.receiptId}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(en['receipt.heading']);
      await page.goto(`${base}/verify`);
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await context.close();
    },
  );
});
