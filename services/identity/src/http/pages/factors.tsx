/**
 * @module http/pages/factors
 * The account page's factor cards: two-factor sign-in (with its recovery codes) and passkeys. Both states
 * of the 2FA card are on the page, one hidden, so `client/account.ts` switches between them after a call
 * without reloading; the passkey list is rebuilt from the API's answers.
 */
import { richText, useT } from '@xv/platform/pages';
import { messages } from '../../messages/index.js';
import { ConfirmForm } from './confirm.js';
import { type AccountProblem, SectionError } from './problem.js';

export interface PasskeyItem {
  id: string;
  name: string;
  aal: string;
  created_at: number;
}

export function TotpCard(props: {
  enabled: boolean;
  recoveryCodesLeft: number;
  /** Codes a form post just made (without script), shown this once. */
  newRecoveryCodes: string[] | null;
  problem: AccountProblem | null;
}) {
  const t = useT(messages);
  const codes = props.newRecoveryCodes ?? [];
  return (
    <section aria-labelledby="totp-title" id="totp-card">
      <h2 id="totp-title">{t('totp.title')}</h2>
      <SectionError problem={props.problem} section="totp" />
      <div id="totp-on" hidden={!props.enabled}>
        <p>
          {richText(t('totp.on'), {
            left: <span id="recovery-left">{t.plural('totp.codesLeft', props.recoveryCodesLeft)}</span>,
          })}
        </p>
        <details class="confirm" id="totp-disable">
          <summary>{t('totp.disable.summary')}</summary>
          <form
            id="totp-disable-form"
            method="post"
            action="/account/2fa/disable"
            data-confirm={t('totp.disable.wording')}
            data-confirm-button={t('totp.disable.button')}
          >
            <label for="totp-disable-code">{t('totp.disable.code')}</label>
            <input
              id="totp-disable-code"
              name="code"
              type="text"
              autocomplete="one-time-code"
              maxlength={64}
              required
            />
            <button type="submit" class="danger">
              {t('totp.disable.button')}
            </button>
          </form>
        </details>{' '}
        <ConfirmForm
          summary={t('totp.renew.summary')}
          wording={t('totp.renew.wording')}
          button={t('totp.renew.button')}
          action="/account/2fa/recovery-codes"
          api={{
            method: 'POST',
            path: '/api/auth/2fa/recovery-codes',
            after: 'recovery-codes',
            status: 'totp-status',
            done: t('totp.renew.done'),
          }}
        />
      </div>
      <div id="totp-off" hidden={props.enabled}>
        <p>{t('totp.off')}</p>
        <button type="button" id="totp-start">
          {t('totp.start')}
        </button>
        <div id="totp-enrol" hidden>
          <p>{t('totp.scan')}</p>
          <div id="totp-qr" class="qr" role="img" aria-label={t('totp.qr')} />
          <p>{richText(t('totp.key'), { key: <code id="totp-secret" /> })}</p>
          <form id="totp-enable-form">
            <label for="totp-code">{t('totp.code')}</label>
            <input id="totp-code" type="text" inputmode="numeric" autocomplete="one-time-code" required />
            <button type="submit">{t('totp.turnOn')}</button>
          </form>
        </div>
      </div>
      <div id="recovery" hidden={codes.length === 0}>
        <h3>{t('recovery.title')}</h3>
        <p>{t('recovery.keep')}</p>
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
  const t = useT(messages);
  return (
    <li data-row={passkey.id}>
      <span data-passkey-name>
        {passkey.name} ({passkey.aal})
      </span>{' '}
      <ConfirmForm
        summary={t('passkeys.remove.summary')}
        wording={t('passkeys.remove.wording', { name: passkey.name })}
        button={t('passkeys.remove.button')}
        action={`/account/passkeys/${encodeURIComponent(passkey.id)}/remove`}
        api={{
          method: 'DELETE',
          path: `/api/auth/passkeys/${encodeURIComponent(passkey.id)}`,
          after: 'remove-row',
          status: 'passkey-status',
          done: t('passkeys.remove.done'),
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
  const t = useT(messages);
  return (
    <section aria-labelledby="passkeys-title" id="passkeys-card">
      <h2 id="passkeys-title">{t('passkeys.title')}</h2>
      <SectionError problem={props.problem} section="passkeys" />
      <p id="passkey-none" hidden={props.passkeys.length > 0}>
        {t('passkeys.none')}
      </p>
      <ul id="passkey-list">
        {props.passkeys.map((passkey) => (
          <PasskeyRow passkey={passkey} />
        ))}
      </ul>
      <label for="passkey-name">{t('passkeys.name')}</label>
      <input id="passkey-name" type="text" maxlength={100} />
      <button type="button" id="passkey-add">
        {t('passkeys.add')}
      </button>
      {props.showStatus ? <p id="passkey-status" role="status" aria-live="polite" /> : null}
    </section>
  );
}
