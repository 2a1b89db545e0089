/**
 * @module http/pages/invitation
 * `/invitations/<token>`: what the invitee sees. Signed out: sign in or create an account, then come back
 * here. Signed in: a button that joins the organization. The pending invitations of an organization, with
 * their invite, resend and revoke forms, are the `PendingInvitations` section of the account page.
 */
import { type ClientAssets, richText, useT } from '@xv/platform/pages';
import { ROLES } from '../../accounts/roles.js';
import type { PendingInvitation } from '../../invitations/invitations.js';
import { messages, roleLabel } from '../../messages/index.js';
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
  const t = useT(messages);
  const title = t('invitation.title', { org: view.orgName });
  return (
    <IdentityPage title={title} signedIn={view.signedInAs !== null} assets={props.assets}>
      <section>
        <h1>{title}</h1>
        <FormError text={view.error} />
        <p>
          {richText(t('invitation.invited'), {
            org: <strong>{view.orgName}</strong>,
            role: <strong>{roleLabel(t, view.role)}</strong>,
            email: <strong>{view.email}</strong>,
          })}
        </p>
        {view.signedInAs === null ? (
          <>
            <p>
              <a class="button" href={withQuery('/login', { redirect: here })}>
                {t('invitation.signIn')}
              </a>
            </p>
            <p>
              {richText(t('invitation.noAccount'), {
                link: (
                  <a href={withQuery('/register', { redirect: here, email: view.email })}>
                    {t('invitation.createWith', { email: view.email })}
                  </a>
                ),
              })}
            </p>
          </>
        ) : matches ? (
          <form method="post" action={here}>
            <button type="submit">{t('invitation.join', { org: view.orgName })}</button>
          </form>
        ) : (
          <p role="alert">{t('invitation.otherAccount', { current: view.signedInAs, email: view.email })}</p>
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
  const t = useT(messages);
  const failed = props.problem?.section === 'invitations' ? props.problem : null;
  const role = failed?.values?.role ?? 'member';
  return (
    <section aria-labelledby="invitations-title" id="invitations-card">
      <h2 id="invitations-title">{t('invitations.title')}</h2>
      <SectionError problem={props.problem} section="invitations" />
      <form
        id="invite-form"
        method="post"
        action="/account/invitations"
        aria-describedby={failed ? 'invitations-error' : undefined}
      >
        <label for="invite-email">{t('invitations.email')}</label>
        <input
          id="invite-email"
          name="email"
          type="email"
          maxlength={254}
          value={failed?.values?.email || undefined}
          aria-invalid={failed ? 'true' : undefined}
          required
        />
        <label for="invite-role">{t('invitations.role')}</label>
        <select id="invite-role" name="role">
          {ROLES.map((r) => (
            <option value={r} selected={r === role}>
              {roleLabel(t, r)}
            </option>
          ))}
        </select>
        <button type="submit">{t('invitations.send')}</button>
      </form>
      <p class="muted" id="invitation-none" hidden={props.invitations.length > 0}>
        {t('invitations.none')}
      </p>
      <table id="invitation-table" hidden={props.invitations.length === 0}>
        <thead>
          <tr>
            <th scope="col">{t('invitations.emailColumn')}</th>
            <th scope="col">{t('invitations.roleColumn')}</th>
            <th scope="col">{t('invitations.expires')}</th>
            <th scope="col">
              <span class="muted">{t('invitations.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody id="invitation-rows">
          {props.invitations.map((invitation) => (
            <tr data-invitation={invitation.id} data-row={invitation.id}>
              <td>{invitation.email}</td>
              <td>{roleLabel(t, invitation.role)}</td>
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
                    {t('invitations.resend')}
                  </button>
                </form>
                <ConfirmForm
                  summary={t('invitations.revoke.summary')}
                  wording={t('invitations.revoke.wording', { email: invitation.email })}
                  button={t('invitations.revoke.button')}
                  action={`/account/invitations/${invitation.id}/revoke`}
                  api={{
                    method: 'DELETE',
                    path: `/api/org/invitations/${encodeURIComponent(invitation.id)}`,
                    after: 'remove-row',
                    status: 'invitations-status',
                    done: t('invitations.revoke.done'),
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
