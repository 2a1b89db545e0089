/**
 * @module http/oidc/account-card
 * The account page's cards of "Sign in with XV": "Apps you allowed" (each app a person let sign them in, what
 * it may see, and a way to take that back: its tokens for the person end at once) and, for administrators,
 * the organization's apps with a form to register one (a plain form post: the secret shows once on the answer).
 */
import { type ClientAssets, richText, useT } from '@xv/platform/pages';
import { messages, wordingOf } from '../../messages/index.js';
import { OIDC_SCOPE_NAMES, OIDC_SCOPES, type OidcClientView, RESOURCE_SCOPES } from '../../oidc/clients.js';
import type { ConsentListing } from '../../oidc/consents.js';
import { ConfirmForm } from '../pages/confirm.js';
import { When } from '../pages/console.js';
import { IdentityPage } from '../pages/frame.js';
import { type AccountProblem, SectionError } from '../pages/problem.js';
import { scopeWording } from './pages.js';

export function AllowedAppsCard(props: { apps: ConsentListing[]; problem: AccountProblem | null }) {
  const t = useT(messages);
  return (
    <section aria-labelledby="apps-title" id="apps-card">
      <h2 id="apps-title">{t('oidc.allowed.title')}</h2>
      <SectionError problem={props.problem} section="apps" />
      <p class="muted" id="apps-status" role="status" />
      {props.apps.length === 0 ? (
        <p>{t('oidc.allowed.none')}</p>
      ) : (
        <ul id="app-list">
          {props.apps.map((app) => (
            <li data-row={app.client_id}>
              {richText(t('oidc.allowed.row'), {
                app: (
                  <strong>
                    {app.self_registered ? t('oidc.allowed.selfRegistered', { app: app.name }) : app.name}
                  </strong>
                ),
                scopes: app.scopes.join(', '),
                when: <When at={app.updated_at} />,
              })}{' '}
              <ConfirmForm
                summary={t('oidc.allowed.revoke.summary')}
                wording={t('oidc.allowed.revoke.wording', { app: app.name })}
                button={t('oidc.allowed.revoke.button')}
                action={`/account/oidc/consents/${encodeURIComponent(app.client_id)}/revoke`}
                api={{
                  method: 'DELETE',
                  path: `/api/oidc/consents/${encodeURIComponent(app.client_id)}`,
                  after: 'remove-row',
                  status: 'apps-status',
                  done: t('oidc.allowed.revoke.done'),
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
  const t = useT(messages);
  return (
    <section aria-labelledby="oidc-apps-title" id="oidc-apps-card">
      <h2 id="oidc-apps-title">{t('oidc.apps.title')}</h2>
      <SectionError problem={props.problem} section="oidc-apps" />
      <p class="muted" id="oidc-apps-status" role="status" />
      <ul id="oidc-app-list">
        {props.apps.map((app) => (
          <li data-row={app.client_id}>
            <strong>{app.name}</strong> ({wordingOf(t, `oidc.apps.kind.${app.kind}`, app.kind)}) ·{' '}
            <code>{app.client_id}</code> · {app.redirect_uris.join(', ')}{' '}
            <ConfirmForm
              summary={t('oidc.apps.remove.summary')}
              wording={t('oidc.apps.remove.wording', { app: app.name })}
              button={t('oidc.apps.remove.button')}
              action={`/account/oidc/clients/${encodeURIComponent(app.client_id)}/remove`}
              api={{
                method: 'DELETE',
                path: `/api/oidc/clients/${encodeURIComponent(app.client_id)}`,
                after: 'remove-row',
                status: 'oidc-apps-status',
                done: t('oidc.apps.remove.done'),
              }}
            />
          </li>
        ))}
      </ul>
      <details>
        <summary>{t('oidc.apps.register')}</summary>
        <form method="post" action="/account/oidc/clients">
          <label for="oidc-app-name">{t('oidc.apps.name')}</label>
          <input id="oidc-app-name" name="name" type="text" maxlength={100} required />
          <fieldset>
            <legend>{t('oidc.apps.kind')}</legend>
            <label>
              <input type="radio" name="kind" value="confidential" checked />{' '}
              {t('oidc.apps.kindConfidential')}
            </label>
            <label>
              <input type="radio" name="kind" value="public" /> {t('oidc.apps.kindPublic')}
            </label>
          </fieldset>
          <label for="oidc-app-redirects">{t('oidc.apps.redirects')}</label>
          <textarea id="oidc-app-redirects" name="redirect_uris" rows={2} required />
          <label for="oidc-app-logout">{t('oidc.apps.logoutRedirects')}</label>
          <textarea id="oidc-app-logout" name="post_logout_redirect_uris" rows={1} />
          <label for="oidc-app-logo">{t('oidc.apps.logo')}</label>
          <input id="oidc-app-logo" name="logo_url" type="url" maxlength={2000} />
          <fieldset>
            <legend>{t('oidc.apps.scopes')}</legend>
            {Object.keys({ ...OIDC_SCOPES, ...RESOURCE_SCOPES })
              .filter((scope) => scope !== 'openid')
              .map((scope) => (
                <label>
                  <input
                    type="checkbox"
                    name={`scope_${scope}`}
                    value="1"
                    checked={OIDC_SCOPE_NAMES.includes(scope) && scope !== 'offline_access'}
                  />{' '}
                  <code>{scope}</code>: {scopeWording(t, scope)}
                </label>
              ))}
          </fieldset>
          <button type="submit">{t('oidc.apps.submit')}</button>
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
  const t = useT(messages);
  return (
    <IdentityPage assets={props.assets} title={t('oidc.registered.title')}>
      <section>
        <h1>{t('oidc.registered.heading', { app: props.app.name })}</h1>
        <dl>
          <dt>{t('oidc.registered.discovery')}</dt>
          <dd>
            <code>{props.issuer}/.well-known/openid-configuration</code>
          </dd>
          <dt>{t('oidc.registered.clientId')}</dt>
          <dd>
            <code id="oidc-client-id">{props.app.client_id}</code>
          </dd>
          {props.clientSecret ? (
            <>
              <dt>{t('oidc.registered.secret')}</dt>
              <dd>
                <code id="oidc-client-secret">{props.clientSecret}</code>
              </dd>
            </>
          ) : null}
        </dl>
        <a href="/account#oidc-apps-title">{t('oidc.registered.back')}</a>
      </section>
    </IdentityPage>
  );
}
