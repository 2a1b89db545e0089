/**
 * @module mail/mailer
 * Sending e-mail: through the SMTP server of `XV_SMTP_URL` when it is set, otherwise into the development
 * outbox (a table shown at `GET /dev/outbox`), so invitations and password resets work on a laptop with
 * no mail server.
 */
import { newId } from '@xv/platform';
import nodemailer from 'nodemailer';
import type { IdentityDb } from '../db.js';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text; links are written out in full. */
  text: string;
}

export interface Mailer {
  /** True when messages go to the development outbox instead of an SMTP server. */
  readonly usesOutbox: boolean;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  createdAt: number;
}

export function createMailer(
  db: IdentityDb,
  options: { smtpUrl?: string | undefined; from: string },
): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.from) : outboxMailer(db);
}

/** Keeps each message in the development outbox. */
export function outboxMailer(db: IdentityDb): Mailer {
  return {
    usesOutbox: true,
    async send(message) {
      await db
        .insertInto('mail_outbox')
        .values({
          id: newId('mail'),
          to_address: message.to,
          subject: message.subject,
          body: message.text,
          created_at: Date.now(),
        })
        .execute();
    },
    close() {},
  };
}

/** Delivers each message through the SMTP server of `url` (`smtp://` or `smtps://`). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    usesOutbox: false,
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}

/** The development outbox, newest first. */
export async function outboxMessages(db: IdentityDb, limit = 200): Promise<OutboxMessage[]> {
  const rows = await db
    .selectFrom('mail_outbox')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    body: row.body,
    createdAt: Number(row.created_at),
  }));
}
