/**
 * @module http/oidc/account-card
 * The account page's cards of "Sign in with XV": "Apps you allowed" (each app a person let sign them in, what
 * it may see, and a way to take that back: its tokens for the person end at once) and, for administrators,
 * the organization's apps with a form to register one (a plain form post: the secret shows once on the answer).
 */
import type { ClientAssets } from '@xv/platform/pages';
import { OIDC_SCOPE_NAMES, OIDC_SCOPES, type OidcClientView, RESOURCE_SCOPES } from '../../oidc/clients.js';
import type { ConsentListing } from '../../oidc/consents.js';
import { ConfirmForm } from '../pages/confirm.js';
import { When } from '../pages/console.js';
import { IdentityPage } from '../pages/frame.js';
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

/** The organization's apps that sign people in with XV, and a form to register one: for its administrators. */
export function OidcAppsCard(props: { apps: OidcClientView[]; problem: AccountProblem | null }) {
  return (
    <section aria-labelledby="oidc-apps-title" id="oidc-apps-card">
      <h2 id="oidc-apps-title">Sign in with XV: your organization's apps</h2>
      <SectionError problem={props.problem} section="oidc-apps" />
      <p class="muted" id="oidc-apps-status" role="status" />
      <ul id="oidc-app-list">
        {props.apps.map((app) => (
          <li data-row={app.client_id}>
            <strong>{app.name}</strong> ({app.kind}) · <code>{app.client_id}</code> ·{' '}
            {app.redirect_uris.join(', ')}{' '}
            <ConfirmForm
              summary="Remove…"
              wording={`${app.name} can no longer sign anyone in; everyone signed in there through XV is signed out.`}
              button="Remove the app"
              action={`/account/oidc/clients/${encodeURIComponent(app.client_id)}/remove`}
              api={{
                method: 'DELETE',
                path: `/api/oidc/clients/${encodeURIComponent(app.client_id)}`,
                after: 'remove-row',
                status: 'oidc-apps-status',
                done: 'App removed.',
              }}
            />
          </li>
        ))}
      </ul>
      <details>
        <summary>Register an app</summary>
        <form method="post" action="/account/oidc/clients">
          <label for="oidc-app-name">Name shown to people</label>
          <input id="oidc-app-name" name="name" type="text" maxlength={100} required />
          <fieldset>
            <legend>Kind</legend>
            <label>
              <input type="radio" name="kind" value="confidential" checked /> Runs on a server (gets a secret)
            </label>
            <label>
              <input type="radio" name="kind" value="public" /> Runs in a browser or on a device (no secret,
              PKCE)
            </label>
          </fieldset>
          <label for="oidc-app-redirects">Redirect URIs, one per line (matched exactly)</label>
          <textarea id="oidc-app-redirects" name="redirect_uris" rows={2} required />
          <label for="oidc-app-logout">Where to go after signing out, one per line (optional)</label>
          <textarea id="oidc-app-logout" name="post_logout_redirect_uris" rows={1} />
          <label for="oidc-app-logo">Logo URL (https, optional)</label>
          <input id="oidc-app-logo" name="logo_url" type="url" maxlength={2000} />
          <fieldset>
            <legend>What the app may ask for</legend>
            {Object.entries({ ...OIDC_SCOPES, ...RESOURCE_SCOPES })
              .filter(([scope]) => scope !== 'openid')
              .map(([scope, words]) => (
                <label>
                  <input
                    type="checkbox"
                    name={`scope_${scope}`}
                    value="1"
                    checked={OIDC_SCOPE_NAMES.includes(scope) && scope !== 'offline_access'}
                  />{' '}
                  <code>{scope}</code>: {words}
                </label>
              ))}
          </fieldset>
          <button type="submit">Register the app</button>
        </form>
      </details>
    </section>
  );
}

/** The answer to a registration: the client id and, this once, the secret. */
export function AppRegisteredPage(props: {
  assets: ClientAssets;
  app: OidcClientView;
  clientSecret: string | null;
  issuer: string;
}) {
  return (
    <IdentityPage assets={props.assets} title="App registered">
      <section>
        <h1>{props.app.name} is registered</h1>
        <dl>
          <dt>Discovery URL</dt>
          <dd>
            <code>{props.issuer}/.well-known/openid-configuration</code>
          </dd>
          <dt>Client id</dt>
          <dd>
            <code id="oidc-client-id">{props.app.client_id}</code>
          </dd>
          {props.clientSecret ? (
            <>
              <dt>Client secret (shown only now: copy it into the app's configuration)</dt>
              <dd>
                <code id="oidc-client-secret">{props.clientSecret}</code>
              </dd>
            </>
          ) : null}
        </dl>
        <a href="/account#oidc-apps-title">Back to your account</a>
      </section>
    </IdentityPage>
  );
}
