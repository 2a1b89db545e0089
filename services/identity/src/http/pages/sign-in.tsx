/**
 * @module http/pages/sign-in
 * `/login`, `/login/2fa` and `/register`: plain forms posting to the spec's
 * endpoints (which answer 303), with the errors those endpoints send back. The
 * passkey button runs `client/sign-in.ts`.
 */
import type { ClientAssets } from '@xv/platform/pages';
import { FormError, IdentityPage } from './frame.js';

const LOGIN_ERRORS: Record<string, string> = {
  '1': 'The e-mail address or the password is wrong.',
  locked:
    'Too many failed attempts from here. Wait a moment and try again, or sign in with a passkey: the wait grows with each further failure.',
  expired: 'The sign-in took too long. Please start again.',
};

const REGISTER_ERRORS: Record<string, string> = {
  invalid: 'Fill in every field: a valid e-mail address and a password of at least 6 characters.',
  exists: 'An account with this e-mail address already exists. Sign in instead.',
  rate_limited: 'Too many registrations from your network. Try again later.',
};

const TWO_FACTOR_ERRORS: Record<string, string> = {
  '1': 'That code is not valid. Enter the current code from your app, or an unused recovery code.',
  locked: 'Too many wrong codes. Wait a few minutes and try again.',
};

const LEVEL_NAMES: Record<string, string> = {
  AAL2: 'two-factor sign-in (password and a code, or a passkey)',
  AAL3: 'a passkey bound to your device, with its PIN or biometrics',
};

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
  const wantsPasskey = props.aal === 'AAL3';
  const passkeyButton = (
    <button
      type="button"
      data-passkey-login
      data-redirect={props.redirect ?? ''}
      data-aal={props.aal ?? ''}
      class={wantsPasskey ? '' : 'secondary'}
    >
      Sign in with a passkey
    </button>
  );
  return (
    <IdentityPage title="Sign in" assets={props.assets} scripts={['sign-in']}>
      <section>
        <h1>Sign in</h1>
        {props.aal && LEVEL_NAMES[props.aal] ? (
          <p class="notice">The page you came from asks for a stronger sign-in: {LEVEL_NAMES[props.aal]}.</p>
        ) : null}
        {props.signedInAs ? <p class="muted">You are signed in as {props.signedInAs}.</p> : null}
        <FormError text={props.error ? (LOGIN_ERRORS[props.error] ?? LOGIN_ERRORS['1']) : undefined} />
        {wantsPasskey ? passkeyButton : null}
        <form
          method="post"
          action="/api/auth/login"
          aria-describedby={props.error ? 'form-error' : undefined}
        >
          <label for="email">E-mail address</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="username webauthn"
            value={props.email || undefined}
            required
          />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
          {props.redirect ? <input type="hidden" name="redirect" value={props.redirect} /> : null}
          {props.aal ? <input type="hidden" name="aal" value={props.aal} /> : null}
          {props.realm ? <input type="hidden" name="realm" value={props.realm} /> : null}
          <button type="submit">Sign in</button>
        </form>
        {wantsPasskey ? null : passkeyButton}
        <p id="passkey-status" role="status" aria-live="polite" />
        <p>
          <a
            href={
              props.realm ? `/password-reset?realm=${encodeURIComponent(props.realm)}` : '/password-reset'
            }
          >
            Forgot your password?
          </a>
        </p>
        <p>
          New here? <a href="/register">Start a trial</a>
        </p>
      </section>
    </IdentityPage>
  );
}

export function TwoFactorPage(props: { error?: string | undefined; assets: ClientAssets }) {
  return (
    <IdentityPage title="Two-factor sign-in" assets={props.assets}>
      <section>
        <h1>Enter your code</h1>
        <p>Open your authenticator app and enter the 6-digit code, or use one of your recovery codes.</p>
        <FormError
          text={props.error ? (TWO_FACTOR_ERRORS[props.error] ?? TWO_FACTOR_ERRORS['1']) : undefined}
        />
        <form method="post" action="/api/auth/2fa">
          <label for="code">Code</label>
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
          <button type="submit">Continue</button>
        </form>
        <p>
          <a href="/login">Start again</a>
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
  const invited = props.redirect?.startsWith('/invitations/') ?? false;
  return (
    <IdentityPage title={invited ? 'Create your account' : 'Start a trial'} assets={props.assets}>
      <section>
        <h1>{invited ? 'Create your account' : 'Start a trial'}</h1>
        <p>
          {invited
            ? 'Creates your account; you then join the organization that invited you.'
            : 'Creates your organization with you as its administrator.'}
        </p>
        <FormError
          text={props.error ? (REGISTER_ERRORS[props.error] ?? REGISTER_ERRORS.invalid) : undefined}
        />
        <form method="post" action="/api/auth/register">
          <label for="name">Your name</label>
          <input
            id="name"
            name="name"
            type="text"
            autocomplete="name"
            maxlength={200}
            value={props.name || undefined}
            required
          />
          <label for="email">E-mail address</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="email"
            maxlength={254}
            value={props.email ?? undefined}
            required
          />
          <label for="password">Password (at least 6 characters)</label>
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
              <label for="orgName">Organization</label>
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
          <button type="submit">Create account</button>
        </form>
        <p>
          Already have an account?{' '}
          <a href={props.redirect ? `/login?redirect=${encodeURIComponent(props.redirect)}` : '/login'}>
            Sign in
          </a>
        </p>
      </section>
    </IdentityPage>
  );
}
