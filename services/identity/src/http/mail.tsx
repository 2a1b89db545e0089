/**
 * @module http/mail
 * | GET /dev/outbox | the machine itself | — | HTML page of the development outbox (404 when `XV_SMTP_URL` is set) |
 *
 * The outbox holds every invitation and password-reset link sent, so it answers
 * only a browser on the machine the service runs on: a loopback connection that
 * no proxy forwarded. Anyone else gets the 404 of a page that does not exist.
 */
import { type App, clientIp } from '@xv/platform/http';
import type { Context } from 'hono';
import { outboxMessages } from '../mail/mailer.js';
import type { IdentityContext } from './context.js';
import { OutboxPage } from './pages/outbox.js';
import { sendPage } from './respond.js';

export function registerMailRoutes(app: App, identity: IdentityContext) {
  if (!identity.mailer.usesOutbox) return;
  app.get('/dev/outbox', async (c) => {
    if (!fromThisMachine(c)) return c.notFound();
    return sendPage(
      identity,
      c,
      <OutboxPage messages={await outboxMessages(identity.db)} assets={identity.assets} />,
    );
  });
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** A loopback connection that carries no sign of a proxy in front. */
function fromThisMachine(c: Context): boolean {
  if (c.req.header('x-forwarded-for') || c.req.header('forwarded') || c.req.header('x-real-ip')) return false;
  return LOOPBACK.test(clientIp(c, false)); // the socket's own address ('unknown' without one)
}
