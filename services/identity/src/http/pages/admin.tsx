/**
 * @module http/pages/admin
 * The account page's cards for an organization's administrators: members (role, removal, adding an existing
 * user) and service clients (created with scopes chosen from a list, the token shown once; revoked after a
 * confirmation). `client/account.ts` updates them in place from the API's answers.
 */
import { useT } from '@xv/platform/pages';
import { ROLES } from '../../accounts/roles.js';
import { messages, roleLabel, wordingOf } from '../../messages/index.js';
import { SCOPE_DESCRIPTIONS } from '../../service-clients/repository.js';
import { ConfirmForm } from './confirm.js';
import { type AccountProblem, SectionError } from './problem.js';

export interface MemberItem {
  user_id: string;
  email: string;
  name: string;
  role: string;
}

export interface ServiceClientItem {
  id: string;
  name: string;
  scopes: string[];
}

export function MembersCard(props: { members: MemberItem[]; problem: AccountProblem | null }) {
  const t = useT(messages);
  return (
    <section aria-labelledby="members-title" id="members-card">
      <h2 id="members-title">{t('members.title')}</h2>
      <SectionError problem={props.problem} section="members" />
      <p class="muted" id="member-removal-note">
        {t('members.removalNote')}
      </p>
      <ul id="member-list">
        {props.members.map((m) => (
          <li data-row={m.user_id}>
            {m.name} · {m.email}{' '}
            <select
              aria-label={t('members.roleOf', { name: m.name })}
              data-member-role={m.user_id}
              class="inline-select"
            >
              {ROLES.map((role) => (
                <option value={role} selected={role === m.role}>
                  {roleLabel(t, role)}
                </option>
              ))}
            </select>{' '}
            <ConfirmForm
              summary={t('members.remove.summary')}
              wording={t('members.remove.wording', { name: m.name, email: m.email })}
              button={t('members.remove.button')}
              action={`/account/members/${encodeURIComponent(m.user_id)}/remove`}
              api={{
                method: 'DELETE',
                path: `/api/org/members/${encodeURIComponent(m.user_id)}`,
                after: 'remove-row',
                status: 'member-status',
                done: t('members.remove.done', { name: m.name }),
              }}
            />
          </li>
        ))}
      </ul>
      <form id="member-form">
        <label for="member-email">{t('members.email')}</label>
        <input id="member-email" type="email" required />
        <label for="member-role">{t('members.role')}</label>
        <select id="member-role">
          {ROLES.map((role) => (
            <option value={role} selected={role === 'member'}>
              {roleLabel(t, role)}
            </option>
          ))}
        </select>
        <button type="submit">{t('members.add')}</button>
      </form>
      <p id="member-status" role="status" aria-live="polite" />
    </section>
  );
}

export function ServiceClientRow(props: { client: ServiceClientItem }) {
  const { client } = props;
  const t = useT(messages);
  return (
    <li data-row={client.id}>
      {client.name} · <code>{client.scopes.join(' ')}</code>{' '}
      <ConfirmForm
        summary={t('clients.revoke.summary')}
        wording={t('clients.revoke.wording', { name: client.name })}
        button={t('clients.revoke.button')}
        action={`/account/service-clients/${encodeURIComponent(client.id)}/revoke`}
        api={{
          method: 'DELETE',
          path: `/api/service-clients/${encodeURIComponent(client.id)}`,
          after: 'remove-row',
          status: 'client-status',
          done: t('clients.revoke.done'),
        }}
      />
    </li>
  );
}

export function ServiceClientsCard(props: { clients: ServiceClientItem[]; problem: AccountProblem | null }) {
  const t = useT(messages);
  return (
    <section aria-labelledby="clients-title" id="clients-card">
      <h2 id="clients-title">{t('clients.title')}</h2>
      <SectionError problem={props.problem} section="clients" />
      <ul id="client-list">
        {props.clients.map((client) => (
          <ServiceClientRow client={client} />
        ))}
      </ul>
      <form id="client-form">
        <label for="client-name">{t('clients.name')}</label>
        <input id="client-name" type="text" maxlength={100} required />
        <fieldset id="client-scopes">
          <legend>{t('clients.scopes')}</legend>
          {Object.entries(SCOPE_DESCRIPTIONS).map(([scope, description]) => (
            <label class="checkbox">
              <input type="checkbox" name="client-scope" value={scope} /> <code>{scope}</code>:{' '}
              {wordingOf(t, `scope.${scope}`, description)}
            </label>
          ))}
        </fieldset>
        <button type="submit">{t('clients.create')}</button>
      </form>
      <div id="client-created" hidden>
        <p>{t('clients.copyToken')}</p>
        <p>
          <code id="client-token" />
        </p>
      </div>
      <p id="client-status" role="status" aria-live="polite" />
    </section>
  );
}
