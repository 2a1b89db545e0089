/**
 * @module http/oidc/account-card
 * The account page's "Apps you allowed" card: each app a person let sign them in with XV, what it may see,
 * and a way to take that back (its tokens for the person end at once).
 */
import type { ConsentListing } from '../../oidc/consents.js';
import { ConfirmForm } from '../pages/confirm.js';
import { When } from '../pages/console.js';
import { type AccountProblem, SectionError } from '../pages/problem.js';

export function AllowedAppsCard(props: { apps: ConsentListing[]; problem: AccountProblem | null }) {
  return (
    <section aria-labelledby="apps-title" id="apps-card">
      <h2 id="apps-title">Apps you allowed</h2>
      <SectionError problem={props.problem} section="apps" />
      <p class="muted" id="apps-status" role="status" />
      {props.apps.length === 0 ? (
        <p>You have not allowed any app to sign you in with XV.</p>
      ) : (
        <ul id="app-list">
          {props.apps.map((app) => (
            <li data-row={app.client_id}>
              <strong>{app.name}</strong> can see: {app.scopes.join(', ')}. Allowed{' '}
              <When at={app.updated_at} />.{' '}
              <ConfirmForm
                summary="Remove access…"
                wording={`${app.name} will no longer be able to use your account; it signs you out there.`}
                button="Remove access"
                action={`/account/oidc/consents/${encodeURIComponent(app.client_id)}/revoke`}
                api={{
                  method: 'DELETE',
                  path: `/api/oidc/consents/${encodeURIComponent(app.client_id)}`,
                  after: 'remove-row',
                  status: 'apps-status',
                  done: 'Access removed.',
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
