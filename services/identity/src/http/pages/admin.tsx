/**
 * @module http/pages/admin
 * The account page's cards for an organization's administrators: members (role, removal, adding an existing
 * user) and service clients (created with scopes chosen from a list, the token shown once; revoked after a
 * confirmation). `client/account.ts` updates them in place from the API's answers.
 */
import { ROLES } from '../../accounts/roles.js';
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
  return (
    <section aria-labelledby="members-title" id="members-card">
      <h2 id="members-title">Members</h2>
      <SectionError problem={props.problem} section="members" />
      <p class="muted" id="member-removal-note">
        Removing a member ends, within a second, their sessions' access to this organization and their
        knowledge-base tokens for it; service clients belong to the organization and stay.
      </p>
      <ul id="member-list">
        {props.members.map((m) => (
          <li data-row={m.user_id}>
            {m.name} · {m.email}{' '}
            <select aria-label={`Role of ${m.name}`} data-member-role={m.user_id} class="inline-select">
              {ROLES.map((role) => (
                <option value={role} selected={role === m.role}>
                  {role}
                </option>
              ))}
            </select>{' '}
            <ConfirmForm
              summary="Remove…"
              wording={`${m.name} (${m.email}) will leave the organization and lose its access at once.`}
              button="Remove the member"
              action={`/account/members/${encodeURIComponent(m.user_id)}/remove`}
              api={{
                method: 'DELETE',
                path: `/api/org/members/${encodeURIComponent(m.user_id)}`,
                after: 'remove-row',
                status: 'member-status',
                done: `${m.name} is no longer a member.`,
              }}
            />
          </li>
        ))}
      </ul>
      <form id="member-form">
        <label for="member-email">E-mail of an existing user</label>
        <input id="member-email" type="email" required />
        <label for="member-role">Role</label>
        <select id="member-role">
          {ROLES.map((role) => (
            <option value={role} selected={role === 'member'}>
              {role}
            </option>
          ))}
        </select>
        <button type="submit">Add member</button>
      </form>
      <p id="member-status" role="status" aria-live="polite" />
    </section>
  );
}

export function ServiceClientRow(props: { client: ServiceClientItem }) {
  const { client } = props;
  return (
    <li data-row={client.id}>
      {client.name} · <code>{client.scopes.join(' ')}</code>{' '}
      <ConfirmForm
        summary="Revoke…"
        wording={`Programs using the token of “${client.name}” are refused from now on.`}
        button="Revoke the service client"
        action={`/account/service-clients/${encodeURIComponent(client.id)}/revoke`}
        api={{
          method: 'DELETE',
          path: `/api/service-clients/${encodeURIComponent(client.id)}`,
          after: 'remove-row',
          status: 'client-status',
          done: 'Service client revoked: its token no longer works.',
        }}
      />
    </li>
  );
}

export function ServiceClientsCard(props: { clients: ServiceClientItem[]; problem: AccountProblem | null }) {
  return (
    <section aria-labelledby="clients-title" id="clients-card">
      <h2 id="clients-title">Service clients</h2>
      <SectionError problem={props.problem} section="clients" />
      <ul id="client-list">
        {props.clients.map((client) => (
          <ServiceClientRow client={client} />
        ))}
      </ul>
      <form id="client-form">
        <label for="client-name">Name</label>
        <input id="client-name" type="text" maxlength={100} required />
        <fieldset id="client-scopes">
          <legend>Scopes</legend>
          {Object.entries(SCOPE_DESCRIPTIONS).map(([scope, description]) => (
            <label class="checkbox">
              <input type="checkbox" name="client-scope" value={scope} /> <code>{scope}</code>: {description}
            </label>
          ))}
        </fieldset>
        <button type="submit">Create service client</button>
      </form>
      <div id="client-created" hidden>
        <p>Copy this token now; it is not shown again:</p>
        <p>
          <code id="client-token" />
        </p>
      </div>
      <p id="client-status" role="status" aria-live="polite" />
    </section>
  );
}
