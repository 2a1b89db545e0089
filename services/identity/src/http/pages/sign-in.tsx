/**
 * @module http/pages/sign-in
 * `/login`, `/login/2fa` and `/register`: plain forms posting to the spec's
 * endpoints (which answer 303), with the errors those endpoints send back. The
 * passkey button runs `client/sign-in.ts`.
 */
import { type ClientAssets, richText, useT } from '@xv/platform/pages';
import { type IdentityT, type MessageKey, messages } from '../../messages/index.js';
import { FormError, IdentityPage } from './frame.js';

/** The wording of a `?error=` code the form's endpoint sent back (an unknown code reads as the first). */
function errorOf(t: IdentityT, form: keyof typeof FIRST_ERROR, code: string | undefined) {
  if (!code) return undefined;
  const key = `${form}.error.${code}`;
  return t.has(key) ? t(key) : t(FIRST_ERROR[form]);
}

const FIRST_ERROR = {
  signIn: 'signIn.error.1',
  register: 'register.error.invalid',
  twoFactor: 'twoFactor.error.1',
} as const satisfies Record<string, MessageKey>;

export function LoginPage(props: {
  /** The address typed before a failed attempt. */
  email?: string | undefined;
  error?: string | undefined;
  redirect: string | null;
  aal: string | null;
  realm: string | null;
  signedInAs?: string | undefined;
  assets: ClientAssets;
}) {
  const t = useT(messages);
  const wantsPasskey = props.aal === 'AAL3';
  const level = props.aal === 'AAL2' || props.aal === 'AAL3' ? t(`signIn.level.${props.aal}`) : null;
  const passkeyButton = (
    <button
      type="button"
      data-passkey-login
      data-redirect={props.redirect ?? ''}
      data-aal={props.aal ?? ''}
      class={wantsPasskey ? '' : 'secondary'}
    >
      {t('signIn.passkey')}
    </button>
  );
  return (
    <IdentityPage title={t('signIn.title')} assets={props.assets} scripts={['sign-in']}>
      <section>
        <h1>{t('signIn.title')}</h1>
        {level ? <p class="notice">{t('signIn.stronger', { level })}</p> : null}
        {props.signedInAs ? <p class="muted">{t('signIn.signedInAs', { email: props.signedInAs })}</p> : null}
        <FormError text={errorOf(t, 'signIn', props.error)} />
        {wantsPasskey ? passkeyButton : null}
        <form
          method="post"
          action="/api/auth/login"
          aria-describedby={props.error ? 'form-error' : undefined}
        >
          <label for="email">{t('signIn.email')}</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="username webauthn"
            value={props.email || undefined}
            required
          />
          <label for="password">{t('signIn.password')}</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
          {props.redirect ? <input type="hidden" name="redirect" value={props.redirect} /> : null}
          {props.aal ? <input type="hidden" name="aal" value={props.aal} /> : null}
          {props.realm ? <input type="hidden" name="realm" value={props.realm} /> : null}
          <button type="submit">{t('signIn.title')}</button>
        </form>
        {wantsPasskey ? null : passkeyButton}
        <p id="passkey-status" role="status" aria-live="polite" />
        <p>
          <a
            href={
              props.realm ? `/password-reset?realm=${encodeURIComponent(props.realm)}` : '/password-reset'
            }
          >
            {t('signIn.forgot')}
          </a>
        </p>
        <p>{richText(t('signIn.newHere'), { link: <a href="/register">{t('signIn.startTrial')}</a> })}</p>
      </section>
    </IdentityPage>
  );
}

export function TwoFactorPage(props: { error?: string | undefined; assets: ClientAssets }) {
  const t = useT(messages);
  return (
    <IdentityPage title={t('twoFactor.title')} assets={props.assets}>
      <section>
        <h1>{t('twoFactor.heading')}</h1>
        <p>{t('twoFactor.intro')}</p>
        <FormError text={errorOf(t, 'twoFactor', props.error)} />
        <form method="post" action="/api/auth/2fa">
          <label for="code">{t('twoFactor.code')}</label>
          <input
            id="code"
            name="code"
            type="text"
            inputmode="numeric"
            autocomplete="one-time-code"
            maxlength={64}
            required
            autofocus
          />
          <button type="submit">{t('twoFactor.continue')}</button>
        </form>
        <p>
          <a href="/login">{t('twoFactor.restart')}</a>
        </p>
      </section>
    </IdentityPage>
  );
}

export function RegisterPage(props: {
  error?: string | undefined;
  /** Where to go once the account exists (an invitation link), and the address it was sent to. */
  redirect?: string | null;
  email?: string | null;
  /** What was typed before a failed attempt. */
  name?: string | undefined;
  orgName?: string | undefined;
  assets: ClientAssets;
}) {
  const t = useT(messages);
  const invited = props.redirect?.startsWith('/invitations/') ?? false;
  const title = t(invited ? 'register.titleInvited' : 'register.title');
  return (
    <IdentityPage title={title} assets={props.assets}>
      <section>
        <h1>{title}</h1>
        <p>{t(invited ? 'register.introInvited' : 'register.intro')}</p>
        <FormError text={errorOf(t, 'register', props.error)} />
        <form method="post" action="/api/auth/register">
          <label for="name">{t('register.name')}</label>
          <input
            id="name"
            name="name"
            type="text"
            autocomplete="name"
            maxlength={200}
            value={props.name || undefined}
            required
          />
          <label for="email">{t('signIn.email')}</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="email"
            maxlength={254}
            value={props.email ?? undefined}
            required
          />
          <label for="password">{t('register.password')}</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            minlength={6}
            maxlength={1024}
            required
          />
          {invited ? null : (
            <>
              <label for="orgName">{t('register.organization')}</label>
              <input
                id="orgName"
                name="orgName"
                type="text"
                autocomplete="organization"
                maxlength={200}
                value={props.orgName || undefined}
                required
              />
            </>
          )}
          {props.redirect ? <input type="hidden" name="redirect" value={props.redirect} /> : null}
          <button type="submit">{t('register.submit')}</button>
        </form>
        <p>
          {richText(t('register.haveAccount'), {
            link: (
              <a href={props.redirect ? `/login?redirect=${encodeURIComponent(props.redirect)}` : '/login'}>
                {t('signIn.title')}
              </a>
            ),
          })}
        </p>
      </section>
    </IdentityPage>
  );
}
