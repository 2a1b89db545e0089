/**
 * @module http/mail
 * | GET /dev/outbox | none | — | HTML page of the development outbox (404 when `XV_SMTP_URL` is set) |
 */
import { type App, cspNonce } from '@xv/platform/http';
import { outboxMessages } from '../mail/mailer.js';
import type { IdentityContext } from './context.js';
import { asDocument } from './pages/frame.js';
import { OutboxPage } from './pages/outbox.js';

export function registerMailRoutes(app: App, identity: IdentityContext) {
  if (!identity.mailer.usesOutbox) return;
  app.get('/dev/outbox', async (c) =>
    c.html(
      asDocument(
        <OutboxPage
          messages={await outboxMessages(identity.db)}
          assets={identity.assets}
          nonce={cspNonce(c)}
        />,
      ),
      200,
      { 'Cache-Control': 'no-store' },
    ),
  );
}
