/**
 * @module client/lib/rows
 * The account page's list rows built in the browser for items the API just returned, with the same markup
 * as the server's (pages/factors.tsx, pages/admin.tsx, pages/confirm.tsx): text only, never parsed HTML.
 */

import { roleLabel, wordingOf } from '../../messages/index.js';
import { t } from './i18n.js';
import { localTime } from './local-time.js';

/** An element with text content (never parsed as HTML). */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  content = '',
): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  made.textContent = content;
  return made;
}

interface Removal {
  summary: string;
  wording: string;
  button: string;
  /** The form post of the page without script, kept so the row is the server's own. */
  action: string;
  path: string;
  status: string;
  done: string;
}

/** A removal that asks first (lib/confirm.ts), then calls DELETE `path`: the markup of pages/confirm.tsx. */
function removal(removal: Removal): HTMLDetailsElement {
  const details = document.createElement('details');
  details.className = 'confirm';
  Object.assign(details.dataset, {
    confirm: removal.wording,
    confirmButton: removal.button,
    apiMethod: 'DELETE',
    apiPath: removal.path,
    after: 'remove-row',
    status: removal.status,
    done: removal.done,
  });
  const form = document.createElement('form');
  form.method = 'post';
  form.action = removal.action;
  const submit = element('button', removal.button);
  submit.type = 'submit';
  submit.className = 'danger inline';
  form.append(element('p', removal.wording), submit);
  details.append(element('summary', removal.summary), form);
  return details;
}

function row(id: string, ...children: (Node | string)[]): HTMLLIElement {
  const item = document.createElement('li');
  item.dataset.row = id;
  item.append(...children);
  return item;
}

export function passkeyRow(id: string, name: string, aal: string): HTMLLIElement {
  const label = element('span', `${name} (${aal})`);
  label.dataset.passkeyName = '';
  return row(
    id,
    label,
    ' ',
    removal({
      summary: t('passkeys.remove.summary'),
      wording: t('passkeys.remove.wording', { name }),
      button: t('passkeys.remove.button'),
      action: `/account/passkeys/${encodeURIComponent(id)}/remove`,
      path: `/api/auth/passkeys/${encodeURIComponent(id)}`,
      status: 'passkey-status',
      done: t('passkeys.remove.done'),
    }),
  );
}

/** The roles the page offers (the add-member form's list, codes and labels), so the script never keeps its own. */
function roles(): { value: string; label: string }[] {
  const choices = document.getElementById('member-role');
  return choices instanceof HTMLSelectElement
    ? [...choices.options].map((option) => ({ value: option.value, label: option.text }))
    : [];
}

export function memberRow(userId: string, name: string, email: string, role: string): HTMLLIElement {
  const select = document.createElement('select');
  select.className = 'inline-select';
  select.dataset.memberRole = userId;
  select.setAttribute('aria-label', t('members.roleOf', { name }));
  for (const choice of roles()) {
    const option = element('option', choice.label);
    option.value = choice.value;
    option.defaultSelected = choice.value === role;
    select.append(option);
  }
  return row(
    userId,
    `${name} · ${email} `,
    select,
    ' ',
    removal({
      summary: t('members.remove.summary'),
      wording: t('members.remove.wording', { name, email }),
      button: t('members.remove.button'),
      action: `/account/members/${encodeURIComponent(userId)}/remove`,
      path: `/api/org/members/${encodeURIComponent(userId)}`,
      status: 'member-status',
      done: t('members.remove.done', { name }),
    }),
  );
}

export function serviceClientRow(id: string, name: string, scopes: string[]): HTMLLIElement {
  return row(
    id,
    `${name} · `,
    element('code', scopes.join(' ')),
    ' ',
    removal({
      summary: t('clients.revoke.summary'),
      wording: t('clients.revoke.wording', { name }),
      button: t('clients.revoke.button'),
      action: `/account/service-clients/${encodeURIComponent(id)}/revoke`,
      path: `/api/service-clients/${encodeURIComponent(id)}`,
      status: 'client-status',
      done: t('clients.revoke.done'),
    }),
  );
}

export interface InvitationItem {
  id: string;
  email: string;
  role: string;
  expires_at: number;
}

/** A pending invitation's row (pages/invitation.tsx): address, role, expiry, resend and revoke. */
export function invitationRow(invitation: InvitationItem): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.dataset.invitation = invitation.id;
  row.dataset.row = invitation.id;
  const expires = document.createElement('td');
  expires.append(localTime(invitation.expires_at));
  const resend = document.createElement('form');
  resend.method = 'post';
  resend.action = `/account/invitations/${encodeURIComponent(invitation.id)}/resend`;
  resend.className = 'inline';
  resend.dataset.resend = invitation.id;
  const again = element('button', t('invitations.resend'));
  again.type = 'submit';
  again.className = 'secondary inline';
  resend.append(again);
  const actions = document.createElement('td');
  actions.append(
    resend,
    removal({
      summary: t('invitations.revoke.summary'),
      wording: t('invitations.revoke.wording', { email: invitation.email }),
      button: t('invitations.revoke.button'),
      action: `/account/invitations/${encodeURIComponent(invitation.id)}/revoke`,
      path: `/api/org/invitations/${encodeURIComponent(invitation.id)}`,
      status: 'invitations-status',
      done: t('invitations.revoke.done'),
    }),
  );
  row.append(element('td', invitation.email), element('td', roleLabel(t, invitation.role)), expires, actions);
  return row;
}

export interface SecurityLogItem {
  kind: string;
  label: string;
  at: number;
  address: string | null;
  user_agent: string | null;
  detail: string | null;
  device: string;
}

/** The API's device name (`Chrome on Linux`, pages/console.tsx) in the page's words. */
function deviceWording(event: SecurityLogItem): string {
  if (!event.user_agent) return t('device.unknown');
  const named = /^(\S+) on (\S+)$/.exec(event.device);
  return named ? t('device.on', { browser: named[1] ?? '', system: named[2] ?? '' }) : event.device;
}

/** One entry of the security log (pages/console.tsx). */
export function securityLogRow(event: SecurityLogItem): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.dataset.event = event.kind;
  const when = document.createElement('td');
  when.append(localTime(event.at));
  const what = element('td', wordingOf(t, `log.event.${event.kind}`, event.label));
  if (event.detail) {
    const detail = element('span', ` (${event.detail})`);
    detail.className = 'muted';
    what.append(detail);
  }
  const device = element('td', deviceWording(event));
  device.title = event.user_agent ?? '';
  row.append(when, what, element('td', event.address ?? t('sessions.unknown')), device);
  return row;
}
