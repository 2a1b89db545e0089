import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { isBrowserFormPost } from './forms.js';

const app = new Hono().all('/', (c) => c.text(isBrowserFormPost(c) ? 'page' : 'api'));
const ask = async (method: string, headers: Record<string, string>) =>
  (await app.request('/', { method, headers, ...(method === 'GET' ? {} : { body: 'a=1' }) })).text();

describe('isBrowserFormPost', () => {
  it("takes a page's form post for a browser's", async () => {
    await expect(ask('POST', { 'content-type': 'application/x-www-form-urlencoded' })).resolves.toBe('page');
    await expect(ask('POST', { 'content-type': 'multipart/form-data; boundary=x' })).resolves.toBe('page');
    await expect(
      ask('POST', {
        'content-type': 'application/json',
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      }),
    ).resolves.toBe('page');
  });

  it('leaves API calls and reads alone', async () => {
    await expect(ask('POST', { 'content-type': 'application/json' })).resolves.toBe('api');
    await expect(
      ask('POST', { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }),
    ).resolves.toBe('api');
    await expect(ask('GET', { accept: 'text/html' })).resolves.toBe('api');
  });
});
