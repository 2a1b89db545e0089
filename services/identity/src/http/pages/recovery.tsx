/**
 * @module http/pages/recovery
 * Pages opened from e-mailed links, and the request that sends one: `/password-reset` (ask for a link),
 * `/password-reset/<token>` (choose a new password) and `/verify-email/<token>` (confirm the address).
 * Each token page only shows a form: the token is spent by the form's post, never by opening the link.
 */
import type { ClientAssets } from '@xv/platform/pages';
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
  const inDefaultRealm = props.realm === 'default';
  return (
    <IdentityPage title="Reset your password" assets={props.assets}>
      <section>
        <h1>Reset your password</h1>
        {inDefaultRealm ? null : (
          <p class="muted">
            For your account in realm <code>{props.realm}</code>.
          </p>
        )}
        <FormError text={props.error} />
        {props.sent ? (
          <p class="notice" role="status">
            If an account uses that address, a link to choose a new password is on its way. It works once, for
            one hour.
          </p>
        ) : null}
        <form
          method="post"
          action="/password-reset"
          aria-describedby={props.error ? 'form-error' : undefined}
        >
          <label for="reset-email">Your e-mail address</label>
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
          <button type="submit">Send me a link</button>
        </form>
        <p>
          <a href={inDefaultRealm ? '/login' : `/login?realm=${encodeURIComponent(props.realm)}`}>
            Back to sign-in
          </a>
        </p>
      </section>
    </IdentityPage>
  );
}

export function NewPasswordPage(props: { token: string; error: boolean; assets: ClientAssets }) {
  return (
    <IdentityPage title="Choose a new password" assets={props.assets}>
      <section>
        <h1>Choose a new password</h1>
        <FormError text={props.error ? 'Enter a password of at least 6 characters.' : undefined} />
        <form
          method="post"
          action={`/password-reset/${props.token}`}
          aria-describedby={props.error ? 'form-error' : undefined}
        >
          <label for="new-password">New password (at least 6 characters)</label>
          <input
            id="new-password"
            name="password"
            type="password"
            autocomplete="new-password"
            minlength={6}
            maxlength={1024}
            required
          />
          <button type="submit">Set the new password</button>
        </form>
        <p class="muted">Every session of the account ends: sign in again with the new password.</p>
      </section>
    </IdentityPage>
  );
}

export function VerifyEmailPage(props: { token: string; email: string; assets: ClientAssets }) {
  return (
    <IdentityPage title="Verify your e-mail address" assets={props.assets}>
      <section>
        <h1>Verify your e-mail address</h1>
        <form method="post" action={`/verify-email/${props.token}`}>
          <p>
            Confirm that <strong>{props.email}</strong> is yours.
          </p>
          <button type="submit">Verify {props.email}</button>
        </form>
      </section>
    </IdentityPage>
  );
}
