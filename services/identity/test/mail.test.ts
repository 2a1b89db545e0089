import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpMailer } from '../src/mail/mailer.js';
import { startIdentity } from '../src/testing/index.js';

describeEachDatabase('the development outbox', (target) => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
  });

  it('without XV_SMTP_URL, /dev/outbox is a page that says where e-mails go', async () => {
    const response = await svc.fetch('/dev/outbox');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Development outbox');
    expect(html).toContain('XV_SMTP_URL');
  });

  it('a request forwarded by a proxy (someone not on this machine) does not see the outbox', async () => {
    const proxied: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
    ];
    for (const header of proxied) {
      const response = await svc.fetch('/dev/outbox', { headers: header });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('Development outbox');
    }
  });

  it('with XV_SMTP_URL set, there is no outbox page', async () => {
    const withSmtp = await startIdentity(await target.open('identity_smtp'), {
      XV_SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    expect((await withSmtp.fetch('/dev/outbox')).status).toBe(404);
  });

  it('refuses an XV_SMTP_URL that is no SMTP address', async () => {
    await expect(
      startIdentity(await target.open('identity_bad_smtp'), { XV_SMTP_URL: 'http://mail.example' }),
    ).rejects.toThrow(/XV_SMTP_URL/);
  });
});

describe('delivery through a real SMTP server', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString('utf8');
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const address = server.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the message with its sender, recipient, subject and text', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, 'XV <no-reply@xv.test>');
    await mailer.send({ to: 'ann@example.test', subject: 'Hello Ann', text: 'Open https://xv.test/x' });
    mailer.close();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-reply@xv.test', to: ['ann@example.test'] });
    expect(received[0]?.data).toContain('Subject: Hello Ann');
    expect(received[0]?.data).toContain('https://xv.test/x');
  });
});
