/**
 * @module http/pages/factors
 * The account page's factor cards: two-factor sign-in (with its recovery codes) and passkeys. Both states
 * of the 2FA card are on the page, one hidden, so `client/account.ts` switches between them after a call
 * without reloading; the passkey list is rebuilt from the API's answers.
 */
import { ConfirmForm } from './confirm.js';
import { type AccountProblem, SectionError } from './problem.js';

export interface PasskeyItem {
  id: string;
  name: string;
  aal: string;
  created_at: number;
}

const codesLeft = (count: number) => `${count} recovery code${count === 1 ? '' : 's'} left`;

export function TotpCard(props: {
  enabled: boolean;
  recoveryCodesLeft: number;
  /** Codes a form post just made (without script), shown this once. */
  newRecoveryCodes: string[] | null;
  problem: AccountProblem | null;
}) {
  const codes = props.newRecoveryCodes ?? [];
  return (
    <section aria-labelledby="totp-title" id="totp-card">
      <h2 id="totp-title">Two-factor sign-in</h2>
      <SectionError problem={props.problem} section="totp" />
      <div id="totp-on" hidden={!props.enabled}>
        <p>
          On. <span id="recovery-left">{codesLeft(props.recoveryCodesLeft)}</span>.
        </p>
        <details class="confirm" id="totp-disable">
          <summary>Turn off 2FA…</summary>
          <form
            id="totp-disable-form"
            method="post"
            action="/account/2fa/disable"
            data-confirm="Sign-ins will then need only your password (or a passkey). Your recovery codes stop working."
            data-confirm-button="Turn off 2FA"
          >
            <label for="totp-disable-code">Current code (or a recovery code) to turn it off</label>
            <input
              id="totp-disable-code"
              name="code"
              type="text"
              autocomplete="one-time-code"
              maxlength={64}
              required
            />
            <button type="submit" class="danger">
              Turn off 2FA
            </button>
          </form>
        </details>{' '}
        <ConfirmForm
          summary="New recovery codes…"
          wording="Your current recovery codes stop working at once; the new ones are shown once."
          button="Make new recovery codes"
          action="/account/2fa/recovery-codes"
          api={{
            method: 'POST',
            path: '/api/auth/2fa/recovery-codes',
            after: 'recovery-codes',
            status: 'totp-status',
            done: 'New recovery codes: the old ones no longer work. Keep these somewhere safe.',
          }}
        />
      </div>
      <div id="totp-off" hidden={props.enabled}>
        <p>Off. Use an authenticator app for a one-time code at each sign-in.</p>
        <button type="button" id="totp-start">
          Set up 2FA
        </button>
        <div id="totp-enrol" hidden>
          <p>Scan this QR code with your app, or type the key in.</p>
          <div id="totp-qr" class="qr" role="img" aria-label="QR code of your 2FA key" />
          <p>
            Key: <code id="totp-secret" />
          </p>
          <form id="totp-enable-form">
            <label for="totp-code">Code from the app</label>
            <input id="totp-code" type="text" inputmode="numeric" autocomplete="one-time-code" required />
            <button type="submit">Turn on</button>
          </form>
        </div>
      </div>
      <div id="recovery" hidden={codes.length === 0}>
        <h3>Recovery codes</h3>
        <p>Keep these somewhere safe: each works once, and they are not shown again.</p>
        <ul id="recovery-codes" class="codes">
          {codes.map((code) => (
            <li>{code}</li>
          ))}
        </ul>
      </div>
      <p id="totp-status" role="status" aria-live="polite" />
    </section>
  );
}

/** One passkey of the list; `client/account.ts` builds the same markup for a passkey just added. */
export function PasskeyRow(props: { passkey: PasskeyItem }) {
  const { passkey } = props;
  return (
    <li data-row={passkey.id}>
      <span data-passkey-name>
        {passkey.name} ({passkey.aal})
      </span>{' '}
      <ConfirmForm
        summary="Remove…"
        wording={`The passkey “${passkey.name}” will no longer sign you in.`}
        button="Remove the passkey"
        action={`/account/passkeys/${encodeURIComponent(passkey.id)}/remove`}
        api={{
          method: 'DELETE',
          path: `/api/auth/passkeys/${encodeURIComponent(passkey.id)}`,
          after: 'remove-row',
          status: 'passkey-status',
          done: 'Passkey removed.',
        }}
      />
    </li>
  );
}

export function PasskeysCard(props: {
  passkeys: PasskeyItem[];
  showStatus: boolean;
  problem: AccountProblem | null;
}) {
  return (
    <section aria-labelledby="passkeys-title" id="passkeys-card">
      <h2 id="passkeys-title">Passkeys</h2>
      <SectionError problem={props.problem} section="passkeys" />
      <p id="passkey-none" hidden={props.passkeys.length > 0}>
        No passkeys yet.
      </p>
      <ul id="passkey-list">
        {props.passkeys.map((passkey) => (
          <PasskeyRow passkey={passkey} />
        ))}
      </ul>
      <label for="passkey-name">Name of the new passkey (optional)</label>
      <input id="passkey-name" type="text" maxlength={100} />
      <button type="button" id="passkey-add">
        Add a passkey
      </button>
      {props.showStatus ? <p id="passkey-status" role="status" aria-live="polite" /> : null}
    </section>
  );
}
