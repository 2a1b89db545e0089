/**
 * The explorer's pages in English and Vietnamese: chosen from `Accept-Language`,
 * overridden by the remembered `xv_lang` switch, English by default.
 */
import { startDevChain, startRelayer, TEST_RELAYER_TOKEN } from '@xv/chain/testing';
import { shellMessages } from '@xv/platform/pages';
import { describeEachDatabase, englishLeftIn, type RunningService } from '@xv/platform/testing';
import type { Hex } from 'viem';
import { beforeAll, expect, it } from 'vitest';
import { messages } from '../src/messages/index.js';
import { bearer, eventually, randomHash } from './helpers.js';

const VIETNAMESE = { 'accept-language': 'vi-VN,vi;q=0.9' };

describeEachDatabase('the chain explorer in two languages', (target) => {
  let relayer: RunningService;
  let single: Hex;
  let batched: Hex;

  const page = async (path: string, headers: Record<string, string> = {}) => {
    const response = await relayer.fetch(path, { headers });
    return { status: response.status, html: await response.text() };
  };
  /** A transaction's page once its block is mined (the summary then says when). */
  const minedPage = (txHash: Hex, headers: Record<string, string>) =>
    eventually(async () => {
      const { html } = await page(`/tx/${txHash}`, headers);
      return html.includes('<time datetime=') ? html : undefined;
    });

  beforeAll(async () => {
    const chain = await startDevChain();
    relayer = await startRelayer(await target.open('chain_languages'), {
      rpcUrl: chain.rpcUrl,
      env: { XV_CHAIN_BATCH_INTERVAL_MS: '300', XV_CHAIN_BATCH_MAX: '64' },
    });
    const post = async (path: string) =>
      (await (
        await relayer.fetch(path, {
          method: 'POST',
          headers: bearer(TEST_RELAYER_TOKEN),
          body: JSON.stringify({ hash: randomHash() }),
        })
      ).json()) as { txHash: Hex };
    single = (await post('/api/anchors')).txHash;
    const batch = await Promise.all([post('/api/batch'), post('/api/batch')]);
    expect(batch[0]!.txHash).toBe(batch[1]!.txHash);
    batched = batch[0]!.txHash;
  });

  it('answers each page in Vietnamese to a Vietnamese browser, with nothing left in English', async () => {
    const home = await page('/', VIETNAMESE);
    expect(home.html).toContain('<html lang="vi">');
    expect(home.html).toContain(`<h1>${messages.vi['explorer.heading']}</h1>`);
    expect(home.html).toContain('<label for="hash">Mã băm giao dịch</label>');

    const wrong = await page('/tx?hash=nope', VIETNAMESE);
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(messages.vi['explorer.invalidHash']);

    const alone = await minedPage(single, VIETNAMESE);
    expect(alone).toContain('<h1>Giao dịch</h1>');
    expect(alone).toContain(messages.vi['anchor.single']);
    expect(alone).toContain('(relayer của XV)');
    expect(alone).toContain(`data-status="success">${messages.vi['tx.status.success']}`);
    // The moment in words, in Vietnamese (the reader's zone is set by the shell script in the browser).
    expect(alone).toMatch(/<time datetime="[^"]+Z" data-style="dateTime">[^<]*thg/);

    const batch = await minedPage(batched, VIETNAMESE);
    expect(batch).toContain('Giao dịch này neo gốc Merkle của một lô gồm 2 mã băm');

    for (const html of [home.html, wrong.html, alone, batch])
      expect(englishLeftIn(html, [messages, shellMessages])).toEqual([]);
  });

  it('keeps English for a reader who chose it, whatever the browser asks for, and by default', async () => {
    for (const headers of [{ ...VIETNAMESE, cookie: 'xv_lang=en' }, {}]) {
      const home = await page('/', headers);
      expect(home.html).toContain('<html lang="en">');
      expect(home.html).toContain('<h1>Chain explorer</h1>');
      const batch = await minedPage(batched, headers);
      expect(batch).toContain('the Merkle root of a batch of 2 fingerprints');
      expect(batch).toContain('<h1>Transaction</h1>');
    }
  });
});
