/**
 * @module http/pages/recovery
 * Pages opened from e-mailed links, and the request that sends one: `/password-reset` (ask for a link),
 * `/password-reset/<token>` (choose a new password) and `/verify-email/<token>` (confirm the address).
 * Each token page only shows a form: the token is spent by the form's post, never by opening the link.
 */
import { type ClientAssets, richText, useT } from '@xv/platform/pages';
import { messages } from '../../messages/index.js';
import { FormError, IdentityPage } from './frame.js';

export function ResetRequestPage(props: {
  sent: boolean;
  /** The realm whose account to reset, as `/login?realm=` chose it. */
  realm: string;
  /** What the person typed, when the page answers a failed post. */
  email?: string;
  error?: string;
  assets: ClientAssets;
}) {
  const t = useT(messages);
  const inDefaultRealm = props.realm === 'default';
  return (
    <IdentityPage title={t('reset.title')} assets={props.assets}>
      <section>
        <h1>{t('reset.title')}</h1>
        {inDefaultRealm ? null : (
          <p class="muted">{richText(t('reset.realm'), { realm: <code>{props.realm}</code> })}</p>
        )}
        <FormError text={props.error} />
        {props.sent ? (
          <p class="notice" role="status">
            {t('reset.sent')}
          </p>
        ) : null}
        <form
          method="post"
          action="/password-reset"
          aria-describedby={props.error ? 'form-error' : undefined}
        >
          <label for="reset-email">{t('reset.email')}</label>
          <input
            id="reset-email"
            name="email"
            type="email"
            autocomplete="email"
            maxlength={254}
            value={props.email || undefined}
            aria-invalid={props.error ? 'true' : undefined}
            required
          />
          {inDefaultRealm ? null : <input type="hidden" name="realm" value={props.realm} />}
          <button type="submit">{t('reset.submit')}</button>
        </form>
        <p>
          <a href={inDefaultRealm ? '/login' : `/login?realm=${encodeURIComponent(props.realm)}`}>
            {t('reset.back')}
          </a>
        </p>
      </section>
    </IdentityPage>
  );
}

export function NewPasswordPage(props: { token: string; error: boolean; assets: ClientAssets }) {
  const t = useT(messages);
  return (
    <IdentityPage title={t('newPassword.title')} assets={props.assets}>
      <section>
        <h1>{t('newPassword.title')}</h1>
        <FormError text={props.error ? t('newPassword.error') : undefined} />
        <form
          method="post"
          action={`/password-reset/${props.token}`}
          aria-describedby={props.error ? 'form-error' : undefined}
        >
          <label for="new-password">{t('newPassword.label')}</label>
          <input
            id="new-password"
            name="password"
            type="password"
            autocomplete="new-password"
            minlength={6}
            maxlength={1024}
            required
          />
          <button type="submit">{t('newPassword.submit')}</button>
        </form>
        <p class="muted">{t('newPassword.note')}</p>
      </section>
    </IdentityPage>
  );
}

export function VerifyEmailPage(props: { token: string; email: string; assets: ClientAssets }) {
  const t = useT(messages);
  return (
    <IdentityPage title={t('verifyEmail.title')} assets={props.assets}>
      <section>
        <h1>{t('verifyEmail.title')}</h1>
        <form method="post" action={`/verify-email/${props.token}`}>
          <p>{richText(t('verifyEmail.confirm'), { email: <strong>{props.email}</strong> })}</p>
          <button type="submit">{t('verifyEmail.submit', { email: props.email })}</button>
        </form>
      </section>
    </IdentityPage>
  );
}
