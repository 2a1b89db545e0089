/**
 * @module http/oidc/provider-pages
 * The pages oidc-provider itself answers with (sign out?, signed out, device sign-in, error), in the language
 * of the request they answer. The provider renders them deep inside its own request handling, which knows
 * nothing of Hono: the route that hands a request to the provider runs it inside `withProviderShell`, and
 * the pages read that request's shell from there.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClientAssets, RequestShell } from '@xv/platform/pages';
import { renderWithShell, useT } from '@xv/platform/pages';
import { raw } from 'hono/html';
import { messages } from '../../messages/index.js';
import { IdentityMessage, IdentityPage } from '../pages/frame.js';

const providerShell = new AsyncLocalStorage<RequestShell>();

/** Runs the provider's handling of a request with that request's shell (language, viewer, path). */
export function withProviderShell<T>(shell: RequestShell, handle: () => Promise<T>): Promise<T> {
  return providerShell.run(shell, handle);
}

/** Text for an HTML attribute. */
function attribute(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

function LogoutPage(props: { assets: ClientAssets; form: string; clientName: string | undefined }) {
  const t = useT(messages);
  return (
    <IdentityPage assets={props.assets} title={t('oidc.logout.title')} signedIn={false}>
      <section>
        <h1>{t('oidc.logout.title')}</h1>
        <p>
          {props.clientName
            ? t('oidc.logout.askedBy', { app: props.clientName })
            : t('oidc.logout.askedByApp')}
        </p>
        {raw(props.form)}
        <button type="submit" form="op.logoutForm" name="logout" value="yes">
          {t('oidc.logout.everywhere')}
        </button>{' '}
        <button type="submit" form="op.logoutForm" class="secondary">
          {t('oidc.logout.appOnly')}
        </button>
      </section>
    </IdentityPage>
  );
}

function DeviceInputPage(props: { assets: ClientAssets; form: string; failed: boolean }) {
  const t = useT(messages);
  // The provider's form carries its own English placeholder for the code.
  const code = attribute(t('oidc.device.code'));
  const form = props.form.replace('placeholder="Enter code"', `placeholder="${code}" aria-label="${code}"`);
  return (
    <IdentityPage assets={props.assets} title={t('oidc.device.title')} signedIn={false}>
      <section>
        <h1>{t('oidc.device.title')}</h1>
        {props.failed ? (
          <p class="error" role="alert">
            {t('oidc.device.invalid')}
          </p>
        ) : (
          <p>{t('oidc.device.intro')}</p>
        )}
        {raw(form)}
        <button type="submit" form="op.deviceInputForm">
          {t('oidc.device.continue')}
        </button>
      </section>
    </IdentityPage>
  );
}

function DeviceConfirmPage(props: {
  assets: ClientAssets;
  form: string;
  clientName: string | undefined;
  userCode: string;
}) {
  const t = useT(messages);
  return (
    <IdentityPage assets={props.assets} title={t('oidc.deviceConfirm.title')} signedIn={false}>
      <section>
        <h1>{t('oidc.deviceConfirm.title')}</h1>
        <p>
          {t('oidc.deviceConfirm.asks', { app: props.clientName ?? t('oidc.deviceConfirm.anApp') })}{' '}
          <code id="device-user-code">{props.userCode}</code>
        </p>
        {raw(props.form)}
        <button type="submit" form="op.deviceConfirmForm">
          {t('oidc.device.continue')}
        </button>{' '}
        <button type="submit" form="op.deviceConfirmForm" name="abort" value="yes" class="secondary">
          {t('oidc.deviceConfirm.cancel')}
        </button>
      </section>
    </IdentityPage>
  );
}

function DeviceSuccessPage(props: { assets: ClientAssets; clientName: string | undefined }) {
  const t = useT(messages);
  return (
    <IdentityMessage
      assets={props.assets}
      title="oidc.deviceSuccess.title"
      message="oidc.deviceSuccess.message"
      values={{ app: props.clientName ?? t('oidc.deviceSuccess.theDevice') }}
    />
  );
}

/**
 * The protocol error of an app's request: the catalogue's wording of its code (in English the provider's
 * own description when it gives one), then the code.
 */
function ProviderErrorPage(props: {
  assets: ClientAssets;
  out: { error: string; error_description?: string | undefined };
}) {
  const t = useT(messages);
  const own = `oidc.error.${props.out.error}`;
  const wording = t.has(own) ? t(own) : t('oidc.error.generic');
  const described = t.locale === 'en' && props.out.error_description ? props.out.error_description : wording;
  return (
    <IdentityMessage
      assets={props.assets}
      title="oidc.error.title"
      message={`${described} (${props.out.error})`}
    />
  );
}

/** The provider's pages, as HTML documents in the language of the request being answered. */
export function providerPages(assets: ClientAssets) {
  const document = (page: unknown) => renderWithShell(providerShell.getStore() ?? {}, page as never);
  return {
    logout(form: string, clientName: string | undefined) {
      return document(<LogoutPage assets={assets} form={form} clientName={clientName} />);
    },
    loggedOut(clientName: string | undefined) {
      return document(
        <IdentityMessage
          assets={assets}
          title="oidc.loggedOut.title"
          message={clientName ? 'oidc.loggedOut.fromApp' : 'oidc.loggedOut.message'}
          values={clientName ? { app: clientName } : undefined}
          link={{ href: '/login', text: 'oidc.loggedOut.signInAgain' }}
        />,
      );
    },
    deviceInput(form: string, failed: boolean) {
      return document(<DeviceInputPage assets={assets} form={form} failed={failed} />);
    },
    deviceConfirm(form: string, clientName: string | undefined, userCode: string) {
      return document(
        <DeviceConfirmPage assets={assets} form={form} clientName={clientName} userCode={userCode} />,
      );
    },
    deviceSuccess(clientName: string | undefined) {
      return document(<DeviceSuccessPage assets={assets} clientName={clientName} />);
    },
    error(out: { error: string; error_description?: string | undefined }) {
      return document(<ProviderErrorPage assets={assets} out={out} />);
    },
  };
}
