/**
 * @module http/oidc/pages
 * The pages of "Sign in with XV": the consent page (the app's logo and name, the organization that
 * registered it, what each scope shares in words), the short "continuing" page that hands the browser back
 * to the provider, and the pages the provider itself answers with (sign out?, signed out, error).
 */
import type { ClientAssets } from '@xv/platform/pages';
import { renderWithShell } from '@xv/platform/pages';
import { raw } from 'hono/html';
import { OIDC_SCOPES, RESOURCE_SCOPES } from '../../oidc/clients.js';
import { IdentityMessage, IdentityPage } from '../pages/frame.js';

export interface ConsentProps {
  assets: ClientAssets;
  action: string;
  /** `organization` null: the app registered itself. */
  app: { name: string; logoUrl: string | null; organization: string | null };
  scopes: string[];
  email: string;
}

export function ConsentPage(props: ConsentProps) {
  const { app } = props;
  return (
    <IdentityPage assets={props.assets} title={`Allow ${app.name}?`}>
      <section class="consent" aria-labelledby="consent-title">
        {app.logoUrl ? <img src={app.logoUrl} alt="" width="64" height="64" class="app-logo" /> : null}
        <h1 id="consent-title">Allow {app.name} to use your XV account?</h1>
        <p>
          {app.name} is registered by {app.organization ?? 'itself, not by an organization'}. You are signed
          in as <strong>{props.email}</strong>.
        </p>
        <p id="consent-scopes-label">If you allow it, {app.name} can:</p>
        <ul aria-labelledby="consent-scopes-label">
          {props.scopes.map((scope) => (
            <li>{OIDC_SCOPES[scope] ?? RESOURCE_SCOPES[scope] ?? scope}</li>
          ))}
        </ul>
        <p>You can take this back at any time under "Apps you allowed" on your account page.</p>
        <form method="post" action={props.action}>
          <button type="submit" name="decision" value="allow">
            Allow
          </button>{' '}
          <button type="submit" name="decision" value="deny" class="secondary">
            Deny
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
  return (
    <IdentityPage assets={props.assets} title="Continuing">
      <meta http-equiv="refresh" content={`0;url=${props.url}`} />
      <section>
        <h1>Continuing…</h1>
        <p>
          <a href={props.url} id="continue">
            Continue
          </a>
        </p>
      </section>
    </IdentityPage>
  );
}

/** The provider's pages, as HTML documents (they are answered outside the app's page rendering). */
export function providerPages(assets: ClientAssets) {
  const document = (page: unknown) => renderWithShell({}, page as never);
  return {
    logout(form: string, clientName: string | undefined) {
      return document(
        <IdentityPage assets={assets} title="Sign out?" signedIn={false}>
          <section>
            <h1>Sign out?</h1>
            <p>
              {clientName ? `${clientName} asks to sign you out.` : 'An app asks to sign you out.'} Sign out
              of XV on this browser, or only of the app?
            </p>
            {raw(form)}
            <button type="submit" form="op.logoutForm" name="logout" value="yes">
              Sign out of XV
            </button>{' '}
            <button type="submit" form="op.logoutForm" class="secondary">
              Only of the app
            </button>
          </section>
        </IdentityPage>,
      );
    },
    loggedOut(clientName: string | undefined) {
      return document(
        <IdentityMessage
          assets={assets}
          title="Signed out"
          message={clientName ? `You are signed out of ${clientName}.` : 'You are signed out.'}
          link={{ href: '/login', text: 'Sign in again' }}
        />,
      );
    },
    deviceInput(form: string, failed: boolean) {
      return document(
        <IdentityPage assets={assets} title="Sign in a device" signedIn={false}>
          <section>
            <h1>Sign in a device</h1>
            {failed ? (
              <p class="error" role="alert">
                That code is not valid or has expired: check it and try again.
              </p>
            ) : (
              <p>Enter the code your device shows (for example in the terminal after `xv kb login`).</p>
            )}
            {raw(form)}
            <button type="submit" form="op.deviceInputForm">
              Continue
            </button>
          </section>
        </IdentityPage>,
      );
    },
    deviceConfirm(form: string, clientName: string | undefined, userCode: string) {
      return document(
        <IdentityPage assets={assets} title="Confirm the device" signedIn={false}>
          <section>
            <h1>Confirm the device</h1>
            <p>
              {clientName ?? 'An app'} asks to sign in. Continue only if your device shows this code:{' '}
              <code id="device-user-code">{userCode}</code>
            </p>
            {raw(form)}
            <button type="submit" form="op.deviceConfirmForm">
              Continue
            </button>{' '}
            <button type="submit" form="op.deviceConfirmForm" name="abort" value="yes" class="secondary">
              Cancel
            </button>
          </section>
        </IdentityPage>,
      );
    },
    deviceSuccess(clientName: string | undefined) {
      return document(
        <IdentityMessage
          assets={assets}
          title="Device signed in"
          message={`${clientName ?? 'The device'} is signed in. You can close this page.`}
        />,
      );
    },
    error(out: { error: string; error_description?: string | undefined }) {
      return document(
        <IdentityMessage
          assets={assets}
          title="The app's sign-in request cannot be completed"
          message={`${out.error_description ?? 'The request is not valid.'} (${out.error})`}
        />,
      );
    },
  };
}
