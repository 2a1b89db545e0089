/**
 * The public pages: `/verify/<id>` for a person, and `/verify`, where a dropped
 * proof file is checked in the browser itself (real Chromium) and never uploaded.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  cspNonceOf,
  describeEachDatabase,
  hasChromium,
  launchBrowser,
  recordCspViolations,
  scriptTagsWithoutNonce,
} from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import { type Hex, hashMessage, keccak256, recoverMessageAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchContent } from '../src/client/lib/content-hash.js';
import { createVerifier } from '../src/client/lib/verifier.js';
import { verifierRules } from '../src/http/verdict-words.js';
import type { ReceiptView } from '../src/receipts/receipts.js';
import { eventually, postJson, startTrustStack, type TrustStack } from './helpers.js';

interface VerifierCore {
  keccak256(bytes: Uint8Array): Uint8Array;
  recoverAddress(hash: Uint8Array, sig: Uint8Array): string | null;
  verifyProof(proof: string, jwks: unknown): Promise<{ status: string; reason?: string }>;
}
const core = createVerifier(verifierRules) as VerifierCore;
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

describe('the in-browser verifier code', () => {
  it('computes Keccak-256 like viem, across the 136-byte block boundary', () => {
    for (const length of [0, 1, 31, 32, 135, 136, 137, 272, 500]) {
      const data = randomBytes(length);
      expect(hex(core.keccak256(new Uint8Array(data)))).toBe(keccak256(data));
    }
  });

  it('recovers the signer of an EIP-191 signature like viem', async () => {
    for (let i = 0; i < 3; i++) {
      const account = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`);
      const digest = randomBytes(32);
      const signature = await account.signMessage({ message: { raw: digest } });
      const hash = Buffer.from(hashMessage({ raw: digest }).slice(2), 'hex');
      const recovered = core.recoverAddress(
        new Uint8Array(hash),
        new Uint8Array(Buffer.from(signature.slice(2), 'hex')),
      );
      expect(recovered).toBe(account.address.toLowerCase());
      expect(await recoverMessageAddress({ message: { raw: digest }, signature: signature as Hex })).toBe(
        account.address,
      );
    }
  });
});

describe('the in-browser content check', () => {
  const sealed = (text: string) => `sha256-${createHash('sha256').update(text).digest('hex')}`;
  const bytes = (text: string) => new Uint8Array(Buffer.from(text));

  it('matches the exact bytes, and JSON in its canonical form, and says which hash', async () => {
    expect(await matchContent(bytes('hello'), { output: sealed('hello') })).toMatchObject({
      matches: 'output',
      form: 'bytes',
    });
    expect(await matchContent(bytes('hello '), { output: sealed('hello') })).toMatchObject({ matches: null });
    const canonical = sealed('{"a":1,"b":[true]}');
    expect(await matchContent(bytes('{ "b": [true], "a": 1 }'), { output: canonical })).toMatchObject({
      matches: 'output',
      form: 'json',
    });
    expect(
      await matchContent(bytes('the question'), { output: sealed('x'), input: sealed('the question') }),
    ).toMatchObject({
      matches: 'input',
    });
  });
});

describeEachDatabase('verify pages', (target) => {
  let stack: TrustStack;
  let receipt: ReceiptView;
  let browser: Browser | undefined;

  beforeAll(async () => {
    stack = await startTrustStack(target, { demo: true });
    receipt = await (
      await postJson(stack.trust, '/api/seal', { modelId: 'model-p', output: 'page test', anchorNow: true })
    ).json();
    // The server-rendered pages are checked without a browser; the drop page needs Chromium.
    if (hasChromium()) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the verifier code accepts a real proof and rejects a changed one (in Node)', async () => {
    const jwks = await (await stack.trust.fetch('/api/keys/jwks')).json();
    const proof = JSON.stringify(receipt.manifest);
    expect(await core.verifyProof(proof, jwks)).toMatchObject({ status: 'valid' });
    expect(
      await core.verifyProof(proof.replace('page test', 'page tesT').replace('model-p', 'model-q'), jwks),
    ).toMatchObject({ status: 'invalid', reason: 'tampered' });
    expect(await core.verifyProof('{', jwks)).toMatchObject({ status: 'malformed' });
  });

  it('/verify/<receipt_id> shows a person the verdict, the issuer and the anchor', async () => {
    const response = await stack.trust.fetch(`/verify/${receipt.receiptId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('lang="en"');
    expect(html).toContain('Valid: the signatures match');
    expect(html).toContain('XV Demo Organization');
    expect(html).toContain(receipt.manifestHash);
    expect(html).toContain(receipt.anchor.mode === 'onchain' ? receipt.anchor.txHash : 'missing');
    expect(html).not.toMatch(/<(script|link|img)[^>]+src="https?:/);
  });

  it('/ is the verify page itself, never a 404', async () => {
    const response = await stack.trust.fetch('/', { redirect: 'manual' });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Verify a proof file');
    expect(html).toContain('id="proof-file"');
  });

  it('/verify/<receipt_id> names the issuer with its DID, links the anchor transaction to the explorer, and offers a content check', async () => {
    const anchored = await eventually(async () => {
      const body = await (await stack.trust.fetch(`/api/verify?receiptId=${receipt.receiptId}`)).json();
      return body.anchor.txHash ? body : undefined;
    });
    const html = await (await stack.trust.fetch(`/verify/${receipt.receiptId}`)).text();
    expect(html).toContain(receipt.manifest.claim.issuer.did);
    expect(html).toContain(`href="${stack.relayer.url}/tx/${anchored.anchor.txHash}"`);
    expect(html).toContain(`data-output-hash="${receipt.outputHash}"`);
    expect(html).toContain('id="content-text"');
    expect(html).toContain('id="content-file"');
  });

  it('/verify/<unknown> is a 404 page, and hostile ids are shown escaped', async () => {
    const response = await stack.trust.fetch('/verify/rcpt_00000000000000000000000000');
    expect(response.status).toBe(404);
    const hostile = await stack.trust.fetch(`/verify/${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(hostile.status).toBe(404);
    const html = await hostile.text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('/verify/<attestation_id> shows the attestation', async () => {
    const attestation = await (
      await postJson(stack.trust, '/api/attestation', { schema: 's', subject: 'did:web:x', claim: 'c' })
    ).json();
    const html = await (await stack.trust.fetch(`/verify/${attestation.attestationId}`)).text();
    expect(html).toContain('Valid: the EIP-712 signature');
    expect(html).toContain(attestation.uid);
    // The issuer by name, with its DID; its id is not what a person reads.
    expect(html).toContain('XV Demo Organization');
    expect(html).toMatch(/did:web:[^<]+:demo/);
    expect(html).not.toMatch(/<dd[^>]*>org_demo<\/dd>/);
  });

  it('every script on /verify carries the nonce of its response', async () => {
    const response = await stack.trust.fetch('/verify');
    const html = await response.text();
    expect(html).toContain('<script nonce=');
    expect(scriptTagsWithoutNonce(html, cspNonceOf(response))).toEqual([]);
  });

  it.runIf(hasChromium())('checks a dropped proof file in the browser without uploading it', async () => {
    const page = await browser!.newPage();
    const violations = await recordCspViolations(page);
    const requests: { url: string; method: string; body: string | null }[] = [];
    page.on('request', (request) =>
      requests.push({ url: request.url(), method: request.method(), body: request.postData() }),
    );
    await page.goto(`${stack.trust.url}/verify`);
    const proof = JSON.stringify(receipt.manifest);
    await page.setInputFiles('#proof-file', {
      name: 'receipt.proof.json',
      mimeType: 'application/json',
      buffer: Buffer.from(proof),
    });
    await page.waitForSelector('#result [data-status]');
    expect(await page.getAttribute('#result [data-status]', 'data-status')).toBe('valid');
    expect(await page.textContent('#result')).toContain(receipt.manifestHash);

    const changed = JSON.parse(proof);
    changed.claim.modelId = 'model-x';
    await page.setInputFiles('#proof-file', {
      name: 'changed.proof.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(changed)),
    });
    await page.waitForSelector('#result [data-status="invalid"]');
    expect(await page.textContent('#result')).toContain('changed after it was sealed');

    // Only the page (with its own static scripts, stylesheets and icon) and the public key set
    // were fetched; nothing was sent.
    expect(requests.every((r) => r.method === 'GET' && r.body === null)).toBe(true);
    const fetched = requests
      .map((r) => new URL(r.url).pathname)
      .filter((path) => !path.startsWith('/assets/') && path !== '/favicon.svg');
    expect(fetched.sort()).toEqual(['/api/keys/jwks', '/verify']);
    expect(violations).toEqual([]);
    await page.close();
  });

  it.runIf(hasChromium())(
    'checks pasted or dropped content against the sealed hash in the browser, without sending it',
    async () => {
      const page = await browser!.newPage();
      const violations = await recordCspViolations(page);
      const requests: { url: string; method: string; body: string | null }[] = [];
      page.on('request', (request) =>
        requests.push({ url: request.url(), method: request.method(), body: request.postData() }),
      );
      await page.goto(`${stack.trust.url}/verify/${receipt.receiptId}`);
      const verdict = async () => {
        await page.waitForSelector('#content-result [data-match]');
        const match = await page.getAttribute('#content-result [data-match]', 'data-match');
        return { match, text: await page.textContent('#content-result') };
      };

      await page.fill('#content-text', 'page test');
      await page.click('#content-check');
      expect(await verdict()).toMatchObject({
        match: 'yes',
        text: expect.stringContaining('matches the sealed content'),
      });

      await page.fill('#content-text', 'page tesT');
      await page.click('#content-check');
      await page.waitForSelector('#content-result [data-match="no"]');
      expect(await page.textContent('#content-result')).toContain('does not match');

      await page.setInputFiles('#content-file', {
        name: 'output.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('page test'),
      });
      await page.waitForSelector('#content-result [data-match="yes"]');
      await page.setInputFiles('#content-file', {
        name: 'output.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('page test\n'),
      });
      await page.waitForSelector('#content-result [data-match="no"]');

      // The content never left the page.
      expect(requests.every((r) => r.method === 'GET' && r.body === null)).toBe(true);
      expect(requests.some((r) => /page(%20|\+| )tes/i.test(r.url))).toBe(false);
      expect(violations).toEqual([]);
      await page.close();
    },
  );

  it.runIf(hasChromium())(
    'checks the anchor of a dropped proof: its path in the browser, its root on chain by the two hashes only',
    async () => {
      await eventually(async () => {
        const body = await (await stack.trust.fetch(`/api/verify?receiptId=${receipt.receiptId}`)).json();
        return body.anchor.onChain ? body : undefined;
      });
      const proof = await (await stack.trust.fetch(`/api/receipts/${receipt.receiptId}/proof`)).text();
      expect(JSON.parse(proof).anchor).toMatchObject({ version: 2 });
      const page = await browser!.newPage();
      const requests: { url: string; method: string; body: string | null }[] = [];
      page.on('request', (request) =>
        requests.push({ url: request.url(), method: request.method(), body: request.postData() }),
      );
      await page.goto(`${stack.trust.url}/verify`);
      const drop = async (text: string, expected: string) => {
        await page.setInputFiles('#proof-file', {
          name: 'anchored.proof.json',
          mimeType: 'application/json',
          buffer: Buffer.from(text),
        });
        await page.waitForFunction(
          (wanted) => (document.querySelector('#result')?.textContent ?? '').includes(wanted),
          expected,
        );
        return page.textContent('#result');
      };
      expect(await drop(proof, 'Anchored on chain')).toMatch(/Anchored on chain\s*yes/);

      const wrong = JSON.parse(proof);
      wrong.anchor.path = [`0x00${'11'.repeat(31)}`];
      expect(await drop(JSON.stringify(wrong), 'does not lead to the root')).not.toContain(
        'Anchored on chain',
      );

      // Nothing was sent but GETs; the chain was asked with the transaction and root hashes only.
      expect(requests.every((r) => r.method === 'GET' && r.body === null)).toBe(true);
      const asked = requests.filter((r) => new URL(r.url).pathname === '/api/anchor/check');
      expect(asked.length).toBe(1);
      expect([...new URL(asked[0]!.url).searchParams.keys()].sort()).toEqual(['root', 'txHash']);
      await page.close();
    },
  );
});
