/**
 * @module http/pages/invitation
 * `/invitations/<token>`: what the invitee sees. Signed out: sign in or create an account, then come back
 * here. Signed in: a button that joins the organization. The pending invitations of an organization, with
 * their invite, resend and revoke forms, are the `PendingInvitations` section of the account page.
 */
import type { ClientAssets } from '@xv/platform/pages';
import { ROLES } from '../../accounts/roles.js';
import type { PendingInvitation } from '../../invitations/invitations.js';
import { withQuery } from '../forms.js';
import { ConfirmForm } from './confirm.js';
import { When } from './console.js';
import { FormError, IdentityPage } from './frame.js';
import { type AccountProblem, SectionError } from './problem.js';

export interface InvitationView {
  token: string;
  orgName: string;
  role: string;
  email: string;
  /** The signed-in person's address, or null when signed out. */
  signedInAs: string | null;
  /** Why joining failed, when the page answers the join form. */
  error?: string | undefined;
}

export function InvitationPage(props: { view: InvitationView; assets: ClientAssets }) {
  const { view } = props;
  const here = `/invitations/${view.token}`;
  const matches = view.signedInAs !== null && view.signedInAs.toLowerCase() === view.email;
  return (
    <IdentityPage title={`Join ${view.orgName}`} signedIn={view.signedInAs !== null} assets={props.assets}>
      <section>
        <h1>Join {view.orgName}</h1>
        <FormError text={view.error} />
        <p>
          You are invited to join <strong>{view.orgName}</strong> as <strong>{view.role}</strong>. The
          invitation was sent to <strong>{view.email}</strong>.
        </p>
        {view.signedInAs === null ? (
          <>
            <p>
              <a class="button" href={withQuery('/login', { redirect: here })}>
                Sign in to accept
              </a>
            </p>
            <p>
              No account yet?{' '}
              <a href={withQuery('/register', { redirect: here, email: view.email })}>
                Create one with {view.email}
              </a>
            </p>
          </>
        ) : matches ? (
          <form method="post" action={here}>
            <button type="submit">Join {view.orgName}</button>
          </form>
        ) : (
          <p role="alert">
            You are signed in as {view.signedInAs}. Sign out and sign in as {view.email} to accept this
            invitation.
          </p>
        )}
      </section>
    </IdentityPage>
  );
}

/** The account page's invitations section for an administrator (plain forms, no script needed). */
export function PendingInvitations(props: {
  invitations: PendingInvitation[];
  problem: AccountProblem | null;
}) {
  const failed = props.problem?.section === 'invitations' ? props.problem : null;
  const role = failed?.values?.role ?? 'member';
  return (
    <section aria-labelledby="invitations-title" id="invitations-card">
      <h2 id="invitations-title">Invitations</h2>
      <SectionError problem={props.problem} section="invitations" />
      <form
        id="invite-form"
        method="post"
        action="/account/invitations"
        aria-describedby={failed ? 'invitations-error' : undefined}
      >
        <label for="invite-email">E-mail address to invite</label>
        <input
          id="invite-email"
          name="email"
          type="email"
          maxlength={254}
          value={failed?.values?.email || undefined}
          aria-invalid={failed ? 'true' : undefined}
          required
        />
        <label for="invite-role">Role of the invitee</label>
        <select id="invite-role" name="role">
          {ROLES.map((r) => (
            <option value={r} selected={r === role}>
              {r}
            </option>
          ))}
        </select>
        <button type="submit">Send invitation</button>
      </form>
      <p class="muted" id="invitation-none" hidden={props.invitations.length > 0}>
        No pending invitations.
      </p>
      <table id="invitation-table" hidden={props.invitations.length === 0}>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span class="muted">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody id="invitation-rows">
          {props.invitations.map((invitation) => (
            <tr data-invitation={invitation.id} data-row={invitation.id}>
              <td>{invitation.email}</td>
              <td>{invitation.role}</td>
              <td>
                <When at={invitation.expires_at} />
              </td>
              <td>
                <form
                  method="post"
                  action={`/account/invitations/${invitation.id}/resend`}
                  class="inline"
                  data-resend={invitation.id}
                >
                  <button type="submit" class="secondary inline">
                    Resend
                  </button>
                </form>
                <ConfirmForm
                  summary="Revoke…"
                  wording={`The link sent to ${invitation.email} will stop working.`}
                  button="Revoke the invitation"
                  action={`/account/invitations/${invitation.id}/revoke`}
                  api={{
                    method: 'DELETE',
                    path: `/api/org/invitations/${encodeURIComponent(invitation.id)}`,
                    after: 'remove-row',
                    status: 'invitations-status',
                    done: 'Invitation revoked: its link no longer works.',
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p id="invitations-status" role="status" aria-live="polite" />
    </section>
  );
}
