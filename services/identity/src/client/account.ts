/**
 * @module client/account
 * The account page's script: each card changes in place after its call to the JSON API (2FA and its
 * recovery codes, passkeys, sessions, members, invitations, service clients), destructive actions ask
 * first (lib/confirm.ts), and times show in the reader's locale. Failures show in the card's status line.
 * Data from the service goes into the page as text only.
 */
import { roleLabel } from '../messages/index.js';
import { type Answer, messageOf, show, text, xv } from './lib/api.js';
import { confirmFirst, wireConfirmedActions } from './lib/confirm.js';
import { find, forEachMarked, inputText } from './lib/dom.js';
import { t } from './lib/i18n.js';
import { localizeTimes, localTime } from './lib/local-time.js';
import { wirePasskeyLogin } from './lib/passkey-login.js';
import {
  element,
  type InvitationItem,
  invitationRow,
  memberRow,
  passkeyRow,
  type SecurityLogItem,
  securityLogRow,
  serviceClientRow,
} from './lib/rows.js';
import { createPasskey } from './lib/webauthn.js';

wirePasskeyLogin();
localizeTimes();

const root = find('account-root', HTMLElement);
/** Where "Continue" leads once the level a page asked for is reached (`data-continue`). */
const continueUrl = root?.dataset.continue ?? '';

function offerContinue() {
  const link = find('continue-link', HTMLAnchorElement);
  if (!continueUrl || !link) return;
  link.href = continueUrl;
  link.hidden = false;
}

/** The re-entered password that binding a first second factor needs (the field shows only then). */
const factorPassword = () => find('factor-password', HTMLInputElement)?.value || undefined;

/** Calls `action` on submit instead of posting the form; a failure shows in `statusId`. */
function onSubmit(formId: string, statusId: string, action: (form: HTMLFormElement) => Promise<void>) {
  const form = find(formId, HTMLFormElement);
  form?.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await action(form);
    } catch (error) {
      show(statusId, messageOf(error), true);
    }
  });
}

/** The page's log shows the newest entries, as the server rendered it. */
const LOG_ENTRIES = 20;

/** Rebuilds the security log from the API after a change, so it shows what was just done. */
async function refreshSecurityLog() {
  const body = find('security-log', HTMLTableSectionElement);
  if (!body) return;
  try {
    const { events } = await xv('/api/account/security-log', undefined, 'GET');
    if (!Array.isArray(events)) return;
    body.replaceChildren(...(events as SecurityLogItem[]).slice(0, LOG_ENTRIES).map(securityLogRow));
  } catch {
    // The log stays as it was; the change itself succeeded.
  }
}

const setHidden = (id: string, hidden: boolean) => {
  const part = document.getElementById(id);
  if (part) part.hidden = hidden;
};

// Two-factor sign-in: both states are on the page; a call switches between them.
function showTotpState(on: boolean, codesLeft: number) {
  setHidden('totp-on', !on);
  setHidden('totp-off', on);
  const left = find('recovery-left', HTMLElement);
  if (left) left.textContent = t.plural('totp.codesLeft', codesLeft);
}

/** Shows the recovery codes an answer carries, in place: they are never shown again. */
function showRecoveryCodes(result: Answer) {
  const codes = Array.isArray(result.recoveryCodes) ? result.recoveryCodes.map(String) : [];
  find('recovery-codes', HTMLUListElement)?.replaceChildren(...codes.map((code) => element('li', code)));
  setHidden('recovery', false);
  showTotpState(true, codes.length);
}

const totpStart = find('totp-start', HTMLButtonElement);
totpStart?.addEventListener('click', async () => {
  try {
    const setup = await xv('/api/auth/2fa/setup', { password: factorPassword() });
    // The QR code is an SVG drawing made by the service: parsed as XML, never as HTML.
    const svg = new DOMParser().parseFromString(text(setup, 'qrSvg'), 'image/svg+xml').documentElement;
    find('totp-qr', HTMLElement)?.replaceChildren(
      ...(svg.nodeName === 'svg' ? [document.importNode(svg, true)] : []),
    );
    const secret = find('totp-secret', HTMLElement);
    if (secret) secret.textContent = text(setup, 'secret');
    setHidden('totp-enrol', false);
    totpStart.hidden = true;
    find('totp-code', HTMLInputElement)?.focus();
  } catch (error) {
    show('totp-status', messageOf(error), true);
  }
});

onSubmit('totp-enable-form', 'totp-status', async (form) => {
  showRecoveryCodes(await xv('/api/auth/2fa/enable', { code: inputText('totp-code') }));
  form.reset();
  setHidden('totp-enrol', true);
  // The account has a second factor now: further changes ask for a fresh proof, not the password.
  setHidden('factor-password-card', true);
  show('totp-status', t('totp.enabled'));
  void refreshSecurityLog();
  offerContinue();
});

onSubmit('totp-disable-form', 'totp-status', async (form) => {
  const { confirm: wording = '', confirmButton = t('totp.disable.button') } = form.dataset;
  if (!(await confirmFirst(wording, confirmButton))) return;
  await xv('/api/auth/2fa/disable', { code: inputText('totp-disable-code') });
  form.reset();
  find('totp-disable', HTMLDetailsElement)?.removeAttribute('open');
  setHidden('recovery', true);
  showTotpState(false, 0);
  if (totpStart) totpStart.hidden = false;
  show('totp-status', t('notice.totp_disabled'));
  void refreshSecurityLog();
});

// Passkeys.
const passkeyList = find('passkey-list', HTMLUListElement);
find('passkey-add', HTMLButtonElement)?.addEventListener('click', async () => {
  try {
    const result = await createPasskey(inputText('passkey-name') || undefined, factorPassword());
    passkeyList?.append(passkeyRow(text(result, 'id'), text(result, 'name'), text(result, 'aal')));
    setHidden('passkey-none', true);
    setHidden('factor-password-card', true);
    const name = find('passkey-name', HTMLInputElement);
    if (name) name.value = '';
    show('passkey-status', t('passkeys.added', { level: text(result, 'aal') }));
    void refreshSecurityLog();
  } catch (error) {
    show('passkey-status', messageOf(error), true);
  }
});

// Destructive actions, once confirmed.
wireConfirmedActions(
  {
    'remove-row': (marked) => {
      const list = marked.closest('[data-row]')?.parentElement;
      marked.closest('[data-row]')?.remove();
      if (list === passkeyList && passkeyList?.children.length === 0) setHidden('passkey-none', false);
      if (list?.id === 'invitation-rows' && list.children.length === 0) showInvitations(false);
      // A token shown once is no use once its client is revoked.
      if (list?.id === 'client-list') setHidden('client-created', true);
      if (!document.querySelector('tr[data-session]:not([data-current])'))
        document.getElementById('sign-out-others')?.remove();
    },
    'sessions-others': () => {
      for (const row of document.querySelectorAll('tr[data-session]:not([data-current])')) row.remove();
      document.getElementById('sign-out-others')?.remove();
    },
    'recovery-codes': (_marked, answer) => showRecoveryCodes(answer),
  },
  () => void refreshSecurityLog(),
);

// Organizations and their settings.
forEachMarked('data-switch-org', HTMLButtonElement, (button, orgId) =>
  button.addEventListener('click', async () => {
    try {
      await xv('/api/org/switch', { org_id: orgId });
      // Every card of the page belongs to the active organization: show the new one's.
      location.reload();
    } catch (error) {
      show('org-status', messageOf(error), true);
    }
  }),
);

function settingBox(id: string, field: string, on: string, off: string) {
  const box = find(id, HTMLInputElement);
  box?.addEventListener('change', async () => {
    try {
      await xv('/api/org/settings', { [field]: box.checked });
      show('org-status', box.checked ? on : off);
    } catch (error) {
      box.checked = !box.checked;
      show('org-status', messageOf(error), true);
    }
  });
}
settingBox('public-assistant', 'public_assistant', t('orgs.publicAssistantOn'), t('orgs.publicAssistantOff'));
settingBox('require-2fa', 'require_2fa', t('orgs.require2faOn'), t('orgs.require2faOff'));

// Members: the list is rebuilt from the API after an addition.
const memberList = find('member-list', HTMLUListElement);
async function reloadMembers() {
  const { members } = await xv('/api/org/members', undefined, 'GET');
  if (!Array.isArray(members) || !memberList) return;
  memberList.replaceChildren(
    ...members.map((m: Answer) =>
      memberRow(text(m, 'user_id'), text(m, 'name'), text(m, 'email'), text(m, 'role')),
    ),
  );
}

onSubmit('member-form', 'member-status', async (form) => {
  const role = find('member-role', HTMLSelectElement)?.value;
  const email = inputText('member-email');
  await xv('/api/org/members', { email, role });
  await reloadMembers();
  form.reset();
  show('member-status', t('members.added', { email, role: roleLabel(t, role ?? '') }));
});

document.addEventListener('change', async (event) => {
  const select = event.target;
  if (!(select instanceof HTMLSelectElement) || !select.dataset.memberRole) return;
  const userId = select.dataset.memberRole;
  const initial = [...select.options].find((option) => option.defaultSelected);
  try {
    await xv(`/api/org/members/${encodeURIComponent(userId)}`, { role: select.value }, 'PATCH');
    // Changing one's own role changes what the page may show.
    if (userId === root?.dataset.userId) return location.reload();
    for (const option of select.options) option.defaultSelected = option.value === select.value;
    show('member-status', t('members.roleChanged', { role: roleLabel(t, select.value) }));
  } catch (error) {
    if (initial) select.value = initial.value;
    show('member-status', messageOf(error), true);
  }
});

// Service clients: the token is shown once, the new client joins the list.
onSubmit('client-form', 'client-status', async (form) => {
  const scopes = [...form.querySelectorAll<HTMLInputElement>('input[name="client-scope"]:checked')].map(
    (box) => box.value,
  );
  if (scopes.length === 0) throw new Error(t('clients.chooseScope'));
  const name = inputText('client-name');
  const result = await xv('/api/service-clients', { name, scopes });
  find('client-list', HTMLUListElement)?.append(serviceClientRow(text(result, 'id'), name, scopes));
  const token = find('client-token', HTMLElement);
  if (token) token.textContent = text(result, 'token');
  setHidden('client-created', false);
  form.reset();
  show('client-status', t('clients.created', { name }));
});

// Invitations: a new one joins the table; sending again renews its link and expiry.
function showInvitations(any: boolean) {
  setHidden('invitation-table', !any);
  setHidden('invitation-none', any);
}

/** The invitation of an answer, when it has the expected fields. */
function invitationOf(answer: Answer): InvitationItem | null {
  const invitation = answer.invitation;
  if (typeof invitation !== 'object' || invitation === null) return null;
  const fields = invitation as Answer;
  const expires = Number(fields.expires_at);
  return {
    id: text(fields, 'id'),
    email: text(fields, 'email'),
    role: text(fields, 'role'),
    expires_at: expires,
  };
}

onSubmit('invite-form', 'invitations-status', async (form) => {
  const role = find('invite-role', HTMLSelectElement)?.value;
  const invitation = invitationOf(
    await xv('/api/org/invitations', { email: inputText('invite-email'), role }),
  );
  if (!invitation) return;
  const rows = find('invitation-rows', HTMLTableSectionElement);
  // Inviting an address again replaces its pending invitation.
  for (const row of rows?.querySelectorAll('tr[data-invitation]') ?? [])
    if (row.firstElementChild?.textContent === invitation.email) row.remove();
  rows?.append(invitationRow(invitation));
  showInvitations(true);
  form.reset();
  show('invitations-status', t('invitations.sent', { email: invitation.email }));
});

document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.resend) return;
  event.preventDefault();
  try {
    const answer = await xv(`/api/org/invitations/${encodeURIComponent(form.dataset.resend)}/resend`, {});
    const invitation = invitationOf(answer);
    const cell = form.closest('tr')?.querySelector('time')?.parentElement;
    if (invitation && cell) cell.replaceChildren(localTime(invitation.expires_at));
    show(
      'invitations-status',
      t('invitations.sentAgain', { email: invitation?.email ?? t('invitations.theInvitee') }),
    );
  } catch (error) {
    show('invitations-status', messageOf(error), true);
  }
});
