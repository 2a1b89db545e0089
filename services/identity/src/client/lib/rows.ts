/**
 * @module client/lib/rows
 * The account page's list rows built in the browser for items the API just returned, with the same markup
 * as the server's (pages/factors.tsx, pages/admin.tsx): text only, and the same confirmation attributes.
 */

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
  label: string;
  wording: string;
  button: string;
  path: string;
  status: string;
  done: string;
}

/** A "Remove"-like button that asks first (lib/confirm.ts), then calls DELETE `path`. */
function removalButton(removal: Removal): HTMLButtonElement {
  const button = element('button', removal.label);
  button.type = 'button';
  button.className = 'secondary inline';
  Object.assign(button.dataset, {
    confirm: removal.wording,
    confirmButton: removal.button,
    apiMethod: 'DELETE',
    apiPath: removal.path,
    after: 'remove-row',
    status: removal.status,
    done: removal.done,
  });
  return button;
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
    removalButton({
      label: 'Remove',
      wording: `The passkey “${name}” will no longer sign you in.`,
      button: 'Remove the passkey',
      path: `/api/auth/passkeys/${encodeURIComponent(id)}`,
      status: 'passkey-status',
      done: 'Passkey removed.',
    }),
  );
}

/** The roles the page offers (the add-member form's list), so the script never keeps its own. */
function roles(): string[] {
  const choices = document.getElementById('member-role');
  return choices instanceof HTMLSelectElement ? [...choices.options].map((option) => option.value) : [];
}

export function memberRow(userId: string, name: string, email: string, role: string): HTMLLIElement {
  const select = document.createElement('select');
  select.className = 'inline-select';
  select.dataset.memberRole = userId;
  select.setAttribute('aria-label', `Role of ${name}`);
  for (const choice of roles()) {
    const option = element('option', choice);
    option.value = choice;
    option.defaultSelected = choice === role;
    select.append(option);
  }
  return row(
    userId,
    `${name} · ${email} `,
    select,
    ' ',
    removalButton({
      label: 'Remove',
      wording: `${name} (${email}) will leave the organization and lose its access at once.`,
      button: 'Remove the member',
      path: `/api/org/members/${encodeURIComponent(userId)}`,
      status: 'member-status',
      done: `${name} is no longer a member.`,
    }),
  );
}

export function serviceClientRow(id: string, name: string, scopes: string[]): HTMLLIElement {
  return row(
    id,
    `${name} · `,
    element('code', scopes.join(' ')),
    ' ',
    removalButton({
      label: 'Revoke',
      wording: `Programs using the token of “${name}” are refused from now on.`,
      button: 'Revoke the service client',
      path: `/api/service-clients/${encodeURIComponent(id)}`,
      status: 'client-status',
      done: 'Service client revoked: its token no longer works.',
    }),
  );
}
