/**
 * @module http/pages/outbox
 * `GET /dev/outbox`: the e-mails the service would have sent, newest first, with their links clickable.
 * Served only while no SMTP server is configured (`XV_SMTP_URL`).
 */
import type { ClientAssets } from '@xv/platform/pages';
import type { OutboxMessage } from '../../mail/mailer.js';
import { IdentityPage } from './frame.js';

const LINK = /(https?:\/\/[^\s<>"]+)/g;

/** The body's text with each http(s) address turned into a link; everything else stays text. */
function LinkedText(props: { text: string }) {
  const parts = props.text.split(LINK);
  return (
    <pre class="mail-body">
      {parts.map((part, index) => (index % 2 === 1 ? <a href={part}>{part}</a> : part))}
    </pre>
  );
}

export function OutboxPage(props: { messages: OutboxMessage[]; assets: ClientAssets }) {
  return (
    <IdentityPage title="Development outbox" assets={props.assets}>
      <h1>Development outbox</h1>
      <p class="notice">
        No SMTP server is configured (<code>XV_SMTP_URL</code>), so the e-mails XV sends are kept here
        instead. Set <code>XV_SMTP_URL</code> to deliver them; this page then no longer exists.
      </p>
      {props.messages.length === 0 ? <p>No e-mail yet.</p> : null}
      {props.messages.map((message) => (
        <article class="mail" aria-label={message.subject}>
          <h2>{message.subject}</h2>
          <p class="muted">
            To <strong data-mail-to>{message.to}</strong> ·{' '}
            <time datetime={new Date(message.createdAt).toISOString()}>
              {new Date(message.createdAt).toISOString().replace('T', ' ').slice(0, 19)} UTC
            </time>
          </p>
          <LinkedText text={message.body} />
        </article>
      ))}
    </IdentityPage>
  );
}
