/**
 * @module http/oidc/pages
 * The pages of "Sign in with XV": the consent page (the app's logo and name, the organization that
 * registered it, what each scope shares in words) and the short "continuing" page that hands the browser back
 * to the provider. The provider's own pages are in `provider-pages`.
 */
import type { ClientAssets } from '@xv/platform/pages';
import { richText, useT } from '@xv/platform/pages';
import { type IdentityT, messages, wordingOf } from '../../messages/index.js';
import { IdentityPage } from '../pages/frame.js';

/** What a scope shares, in the page's words (its name when the catalogue has none). */
export function scopeWording(t: IdentityT, scope: string): string {
  return wordingOf(t, `oidc.scope.${scope}`, scope);
}

export interface ConsentProps {
  assets: ClientAssets;
  action: string;
  /** `name` null: XV's own desktop client; `organization` null: the registering organization is gone; `selfRegistered`: the app registered itself (RFC 7591). */
  app: { name: string | null; logoUrl: string | null; organization: string | null; selfRegistered: boolean };
  scopes: string[];
  email: string;
}

export function ConsentPage(props: ConsentProps) {
  const t = useT(messages);
  const app = props.app.name ?? t('oidc.consent.desktopApp');
  const organization = props.app.organization ?? t('oidc.consent.someOrganization');
  return (
    <IdentityPage assets={props.assets} title={t('oidc.consent.title', { app })}>
      <section class="consent" aria-labelledby="consent-title">
        {props.app.logoUrl ? (
          <img src={props.app.logoUrl} alt="" width="64" height="64" class="app-logo" />
        ) : null}
        <h1 id="consent-title">{t('oidc.consent.heading', { app })}</h1>
        <p>
          {props.app.selfRegistered
            ? richText(t('oidc.consent.registeredItself'), { app, email: <strong>{props.email}</strong> })
            : richText(t('oidc.consent.registeredBy'), {
                app,
                organization,
                email: <strong>{props.email}</strong>,
              })}
        </p>
        <p id="consent-scopes-label">{t('oidc.consent.scopesLabel', { app })}</p>
        <ul aria-labelledby="consent-scopes-label">
          {props.scopes.map((scope) => (
            <li>{scopeWording(t, scope)}</li>
          ))}
        </ul>
        <p>{t('oidc.consent.takeBack')}</p>
        <form method="post" action={props.action}>
          <button type="submit" name="decision" value="allow">
            {t('oidc.consent.allow')}
          </button>{' '}
          <button type="submit" name="decision" value="deny" class="secondary">
            {t('oidc.consent.deny')}
          </button>
        </form>
      </section>
    </IdentityPage>
  );
}

/**
 * Hands the browser on to `url` with a fresh navigation (a meta refresh, no script): the next stop may be the
 * app's redirect URI, which a redirect started by a form post here would have to pass the page's
 * `form-action` policy for.
 */
export function ContinuePage(props: { assets: ClientAssets; url: string }) {
  const t = useT(messages);
  return (
    <IdentityPage assets={props.assets} title={t('oidc.continue.title')}>
      <meta http-equiv="refresh" content={`0;url=${props.url}`} />
      <section>
        <h1>{t('oidc.continue.heading')}</h1>
        <p>
          <a href={props.url} id="continue">
            {t('oidc.continue.link')}
          </a>
        </p>
      </section>
    </IdentityPage>
  );
}
