/**
 * @module http/pages/outbox
 * `GET /dev/outbox`: the e-mails the service would have sent, newest first, with their links clickable.
 * Served only while no SMTP server is configured (`XV_SMTP_URL`).
 */
import { type ClientAssets, LocalTime, richText, useT } from '@xv/platform/pages';
import type { OutboxMessage } from '../../mail/mailer.js';
import { messages } from '../../messages/index.js';
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
  const t = useT(messages);
  return (
    <IdentityPage title={t('outbox.title')} assets={props.assets}>
      <h1>{t('outbox.title')}</h1>
      <p class="notice">{richText(t('outbox.notice'), { setting: <code>XV_SMTP_URL</code> })}</p>
      {props.messages.length === 0 ? <p>{t('outbox.none')}</p> : null}
      {props.messages.map((message) => (
        <article class="mail" aria-label={message.subject}>
          <h2>{message.subject}</h2>
          <p class="muted">
            {richText(t('outbox.to'), {
              to: <strong data-mail-to>{message.to}</strong>,
              time: <LocalTime value={message.createdAt} />,
            })}
          </p>
          <LinkedText text={message.body} />
        </article>
      ))}
    </IdentityPage>
  );
}
