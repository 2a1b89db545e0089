/**
 * @module client/account
 * The account page's script: 2FA set-up and removal, passkeys, switching the
 * active organization, the organization's settings, members and service clients.
 * After a change the page reloads to show the new state; failures show in the
 * section's status line.
 */
import { messageOf, show, text, xv } from './lib/api.js';
import { find, forEachMarked, inputText } from './lib/dom.js';
import { wirePasskeyLogin } from './lib/passkey-login.js';
import { createPasskey } from './lib/webauthn.js';

wirePasskeyLogin();

/** Where "Continue" leads once the level a page asked for is reached (`data-continue`). */
const continueUrl = find('account-root', HTMLElement)?.dataset.continue ?? '';

function offerContinue() {
  const link = find('continue-link', HTMLAnchorElement);
  if (!continueUrl || !link) return;
  link.href = continueUrl;
  link.hidden = false;
}

/** The re-entered password that binding a first second factor needs (the field shows only then). */
const factorPassword = () => find('factor-password', HTMLInputElement)?.value || undefined;

/** Calls `action` on submit instead of posting the form; a failure shows in `statusId`. */
function onSubmit(formId: string, statusId: string, action: () => Promise<void>) {
  find(formId, HTMLFormElement)?.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await action();
    } catch (error) {
      show(statusId, messageOf(error), true);
    }
  });
}

/** A button that calls the service and reloads the page. */
function onClickReload(button: HTMLElement, statusId: string, call: () => Promise<unknown>) {
  button.addEventListener('click', async () => {
    try {
      await call();
      location.reload();
    } catch (error) {
      show(statusId, messageOf(error), true);
    }
  });
}

// Two-factor sign-in.
const totpStart = find('totp-start', HTMLButtonElement);
totpStart?.addEventListener('click', async () => {
  try {
    const setup = await xv('/api/auth/2fa/setup', { password: factorPassword() });
    const qr = find('totp-qr', HTMLElement);
    if (qr) qr.innerHTML = text(setup, 'qrSvg');
    const secret = find('totp-secret', HTMLElement);
    if (secret) secret.textContent = text(setup, 'secret');
    const enrol = find('totp-enrol', HTMLElement);
    if (enrol) enrol.hidden = false;
    totpStart.hidden = true;
    find('totp-code', HTMLInputElement)?.focus();
  } catch (error) {
    show('totp-status', messageOf(error), true);
  }
});

/** Shows the recovery codes an answer carries, in place: they are never shown again. */
function showRecoveryCodes(result: Record<string, unknown>) {
  const codes = Array.isArray(result.recoveryCodes) ? result.recoveryCodes.map(String) : [];
  find('recovery-codes', HTMLUListElement)?.replaceChildren(
    ...codes.map((code) => {
      const item = document.createElement('li');
      item.textContent = code;
      return item;
    }),
  );
  const recovery = find('recovery', HTMLElement);
  if (recovery) recovery.hidden = false;
}

find('recovery-regenerate', HTMLButtonElement)?.addEventListener('click', async () => {
  try {
    showRecoveryCodes(await xv('/api/auth/2fa/recovery-codes', {}));
    find('recovery-confirm', HTMLDetailsElement)?.removeAttribute('open');
    show('totp-status', 'New recovery codes: the old ones no longer work. Keep these somewhere safe.');
  } catch (error) {
    show('totp-status', messageOf(error), true);
  }
});

onSubmit('totp-enable-form', 'totp-status', async () => {
  showRecoveryCodes(await xv('/api/auth/2fa/enable', { code: inputText('totp-code') }));
  const enrol = find('totp-enrol', HTMLElement);
  if (enrol) enrol.hidden = true;
  show(
    'totp-status',
    '2FA is on. Keep these recovery codes somewhere safe: each works once. Your next verification uses a code from the app.',
  );
  offerContinue();
});

onSubmit('totp-disable-form', 'totp-status', async () => {
  await xv('/api/auth/2fa/disable', { code: inputText('totp-disable-code') });
  location.reload();
});

// Passkeys.
find('passkey-add', HTMLButtonElement)?.addEventListener('click', async () => {
  try {
    const result = await createPasskey(inputText('passkey-name') || undefined, factorPassword());
    show('passkey-status', `Passkey added (${text(result, 'aal')}).`);
    setTimeout(() => location.reload(), 600);
  } catch (error) {
    show('passkey-status', messageOf(error), true);
  }
});
forEachMarked('data-passkey-remove', HTMLButtonElement, (button, id) =>
  onClickReload(button, 'passkey-status', () =>
    xv(`/api/auth/passkeys/${encodeURIComponent(id)}`, undefined, 'DELETE'),
  ),
);

// Organizations and their settings.
forEachMarked('data-switch-org', HTMLButtonElement, (button, orgId) =>
  onClickReload(button, 'org-status', () => xv('/api/org/switch', { org_id: orgId })),
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
settingBox(
  'public-assistant',
  'public_assistant',
  'The public assistant is on.',
  'The public assistant is off.',
);
settingBox(
  'require-2fa',
  'require_2fa',
  'Members must keep a second factor.',
  'A second factor is optional.',
);

// Members.
onSubmit('member-form', 'member-status', async () => {
  const role = find('member-role', HTMLSelectElement)?.value;
  await xv('/api/org/members', { email: inputText('member-email'), role });
  location.reload();
});
forEachMarked('data-member-role', HTMLSelectElement, (select, userId) => {
  select.addEventListener('change', async () => {
    try {
      await xv(`/api/org/members/${encodeURIComponent(userId)}`, { role: select.value }, 'PATCH');
      location.reload();
    } catch (error) {
      const initial = [...select.options].find((option) => option.defaultSelected);
      if (initial) select.value = initial.value;
      show('member-status', messageOf(error), true);
    }
  });
});
forEachMarked('data-member-remove', HTMLButtonElement, (button, userId) =>
  onClickReload(button, 'member-status', () =>
    xv(`/api/org/members/${encodeURIComponent(userId)}`, undefined, 'DELETE'),
  ),
);

// Service clients.
onSubmit('client-form', 'client-status', async () => {
  const scopes = [...document.querySelectorAll<HTMLInputElement>('input[name="client-scope"]:checked')].map(
    (box) => box.value,
  );
  if (scopes.length === 0) throw new Error('Choose at least one scope.');
  const result = await xv('/api/service-clients', { name: inputText('client-name'), scopes });
  const token = find('client-token', HTMLElement);
  if (token) token.textContent = text(result, 'token');
  const created = find('client-created', HTMLElement);
  if (created) created.hidden = false;
});
forEachMarked('data-client-revoke', HTMLButtonElement, (button, id) =>
  onClickReload(button, 'client-status', () =>
    xv(`/api/service-clients/${encodeURIComponent(id)}`, undefined, 'DELETE'),
  ),
);
