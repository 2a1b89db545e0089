/**
 * Every knowledge page in Vietnamese and in English: `Accept-Language: vi` gets
 * `<html lang="vi">` and the Vietnamese wording, the remembered choice (the
 * `xv_lang` cookie) wins over the browser's header, and no English sentence of
 * the catalogue is left on a Vietnamese page.
 */
import { shellMessages } from '@xv/platform/pages';
import { describeEachDatabase, englishLeftIn } from '@xv/platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../src/messages/index.js';
import { publish, sha256, startWorld, type World, withCookie, withToken } from './helpers.js';

type Who = 'maker' | 'reviewer' | 'member' | 'outsider';

interface Case {
  name: string;
  who: Who;
  path: () => string;
  status?: number;
  /** A sentence only the page in that language shows (its heading where it has its own). */
  vi: string;
  en: string;
}

describeEachDatabase('knowledge pages in two languages', (target) => {
  let world: World;
  let approvedId: string;
  let waitingId: string;
  let rejectedId: string;

  beforeAll(async () => {
    world = await startWorld(target);
    approvedId = await publish(
      world,
      'hr/leave.md',
      '---\nowner: People team\n---\n# Leave\n\nTwenty days a year.',
    );
    const waiting = '# Travel\n\nTrains in second class.';
    waitingId = (
      await withToken(world.kb, world.tokens.sync, '/api/sync/push', {
        path: 'travel.md',
        content: waiting,
        hash: sha256(waiting),
      })
    ).body.docId;
    await withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId: waitingId });
    const rejected = '# Expenses\n\nReceipts within a week.';
    rejectedId = (
      await withToken(world.kb, world.tokens.sync, '/api/sync/push', {
        path: 'expenses.md',
        content: rejected,
        hash: sha256(rejected),
      })
    ).body.docId;
    await withToken(world.kb, world.tokens.sync, '/api/sync/submit', { docId: rejectedId });
    await withCookie(world.kb, world.reviewer, '/api/review/decide', {
      docId: rejectedId,
      decision: 'reject',
      note: 'Which week?',
    });
  });

  const cases: Case[] = [
    { name: 'home', who: 'member', path: () => '/', vi: '<h1>Thư viện</h1>', en: '<h1>Library</h1>' },
    {
      name: 'search',
      who: 'member',
      path: () => '/library?q=twenty%20days',
      vi: '<h1>Tìm kiếm</h1>',
      en: '<h1>Search</h1>',
    },
    {
      // Another organization, with no approved document to find.
      name: 'search without a match',
      who: 'outsider',
      path: () => '/library?q=zeppelin',
      vi: 'Không có tài liệu đã duyệt nào khớp với “zeppelin”.',
      en: 'No approved document matches “zeppelin”.',
    },
    {
      name: 'reader',
      who: 'member',
      path: () => `/library/${approvedId}`,
      vi: '← Thư viện',
      en: '← Library',
    },
    {
      name: 'my documents',
      who: 'maker',
      path: () => '/mine',
      vi: '<h1>Tài liệu của tôi</h1>',
      en: '<h1>My documents</h1>',
    },
    {
      name: 'my rejected document',
      who: 'maker',
      path: () => `/mine/${rejectedId}`,
      vi: 'đã từ chối vào ngày',
      en: 'Rejected by',
    },
    {
      name: 'review queue',
      who: 'reviewer',
      path: () => '/review',
      vi: '<h1>Đang chờ duyệt</h1>',
      en: '<h1>Waiting for review</h1>',
    },
    {
      name: 'review of a document',
      who: 'reviewer',
      path: () => `/review/${waitingId}`,
      vi: 'Ghi chú cho nhật ký kiểm tra',
      en: 'Note for the audit trail',
    },
    {
      name: 'review of a document with history',
      who: 'reviewer',
      path: () => `/review/${approvedId}`,
      vi: 'Đã gửi duyệt',
      en: 'Submitted for review',
    },
    {
      name: 'access tokens',
      who: 'member',
      path: () => '/tokens',
      vi: '<h1>Mã truy cập cá nhân</h1>',
      en: '<h1>Personal access tokens</h1>',
    },
    {
      name: 'a document not found',
      who: 'member',
      path: () => '/library/doc_unknown',
      status: 404,
      vi: '<h1>Không tìm thấy tài liệu</h1>',
      en: '<h1>Document not found</h1>',
    },
    {
      name: 'the queue refused to a member',
      who: 'member',
      path: () => '/review',
      status: 403,
      vi: 'Cần quyền review:decide để duyệt tài liệu.',
      en: 'Reviewing needs the review:decide permission.',
    },
  ];

  async function get(who: Who, path: string, headers: Record<string, string>) {
    const response = await world.kb.fetch(path, { headers: { cookie: world[who].cookie, ...headers } });
    return { status: response.status, html: await response.text() };
  }

  describe.each(cases)('$name', (c) => {
    it('answers in Vietnamese to a Vietnamese browser', async () => {
      const { status, html } = await get(c.who, c.path(), { 'accept-language': 'vi-VN,vi;q=0.9,en;q=0.5' });
      expect(status).toBe(c.status ?? 200);
      expect(html).toContain('<html lang="vi">');
      expect(html).toContain(c.vi);
      expect(html).not.toContain(c.en);
    });

    it('answers in English when the reader chose English, whatever the browser says', async () => {
      const { html } = await get(c.who, c.path(), {
        'accept-language': 'vi',
        cookie: `${world[c.who].cookie}; xv_lang=en`,
      });
      expect(html).toContain('<html lang="en">');
      expect(html).toContain(c.en);
      expect(html).not.toContain(c.vi);
    });

    it('leaves no English sentence of the catalogue on the Vietnamese page', async () => {
      const { html } = await get(c.who, c.path(), { 'accept-language': 'vi' });
      expect(englishLeftIn(html, [messages, shellMessages])).toEqual([]);
    });
  });

  it('words a refused decision in Vietnamese, from the error’s code', async () => {
    // The maker of a revision posts a decision on it: the page explains the refusal in the reader's language.
    const response = await world.kb.fetch(`/review/${waitingId}/decide`, {
      method: 'POST',
      headers: {
        cookie: world.maker.cookie,
        origin: world.kb.url,
        'accept-language': 'vi',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'decision=approve',
    });
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html).toContain('Người tạo phiên bản không thể tự duyệt');
    expect(html).not.toContain('The maker of a revision cannot review it');
  });

  it('asks for a token’s name and scope in Vietnamese', async () => {
    const response = await world.kb.fetch('/tokens', {
      method: 'POST',
      headers: {
        cookie: world.member.cookie,
        origin: world.kb.url,
        'accept-language': 'vi',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'name=&scopes=sync',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Hãy đặt tên cho mã truy cập và chọn ít nhất một phạm vi quyền.');
  });

  it('remembers the switch: /lang sets the cookie and returns to the page', async () => {
    const response = await world.kb.fetch('/lang?to=vi&back=%2Fmine', {
      redirect: 'manual',
      headers: { cookie: world.maker.cookie },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/mine');
    const remembered = /xv_lang=vi/.exec(response.headers.get('set-cookie') ?? '')?.[0];
    expect(remembered).toBe('xv_lang=vi');
    const { html } = await get('maker', '/mine', { cookie: `${world.maker.cookie}; xv_lang=vi` });
    expect(html).toContain('<h1>Tài liệu của tôi</h1>');
  });
});
