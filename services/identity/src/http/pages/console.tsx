/**
 * @module http/pages/console
 * The account console's sections of `/account`: profile (display name, whether the address is verified),
 * password change, active sessions and devices with sign-out, and the security log. Plain forms that work
 * without script; a sign-out asks first (the dialog with script, a second step without). Times are UTC in
 * the page and shown in the reader's own time zone and language by the page's script.
 */
import { formatDate } from '@xv/platform/i18n';
import { richText, useLocale, useT } from '@xv/platform/pages';
import { type IdentityT, messages, wordingOf } from '../../messages/index.js';
import type { SecurityEvent } from '../../self-service/security-log.js';
import type { SessionListing } from '../../sessions/store.js';
import { ConfirmForm } from './confirm.js';
import { type AccountProblem, SectionError } from './problem.js';

export interface ConsoleView {
  name: string;
  email: string;
  emailVerified: boolean;
  currentSessionId: string;
  sessions: SessionListing[];
  events: SecurityEvent[];
}

/** A moment in the page's language, in UTC until the page's script rewrites it in the reader's time zone (`data-local`). */
export function When(props: { at: number }) {
  const date = new Date(props.at);
  return (
    <time datetime={date.toISOString()} data-local="">
      {formatDate(date, useLocale(), 'dateTime', 'UTC')} UTC
    </time>
  );
}

/** A short name for a browser's `User-Agent`, in the page's language when given its translator. */
export function deviceName(userAgent: string | null, t?: IdentityT): string {
  if (!userAgent) return t ? t('device.unknown') : 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (!browser || !system) return userAgent.slice(0, 60);
  return t ? t('device.on', { browser, system }) : `${browser} on ${system}`;
}

function Sessions(props: { view: ConsoleView; problem: AccountProblem | null }) {
  const t = useT(messages);
  const { sessions, currentSessionId } = props.view;
  const others = sessions.filter((s) => s.id !== currentSessionId).length;
  return (
    <section aria-labelledby="sessions-title" id="sessions-card">
      <h2 id="sessions-title">{t('sessions.title')}</h2>
      <SectionError problem={props.problem} section="sessions" />
      <table>
        <thead>
          <tr>
            <th scope="col">{t('sessions.device')}</th>
            <th scope="col">{t('sessions.address')}</th>
            <th scope="col">{t('sessions.lastSeen')}</th>
            <th scope="col">
              <span class="muted">{t('sessions.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr data-session={s.id} data-row={s.id} data-current={s.id === currentSessionId ? '' : undefined}>
              <td title={s.user_agent ?? ''}>{deviceName(s.user_agent, t)}</td>
              <td>{s.address ?? t('sessions.unknown')}</td>
              <td>
                <When at={s.last_seen_at} />
              </td>
              <td>
                {s.id === currentSessionId ? (
                  <strong>{t('sessions.current')}</strong>
                ) : (
                  <ConfirmForm
                    summary={t('sessions.end.summary')}
                    wording={t('sessions.end.wording', {
                      device: deviceName(s.user_agent, t),
                      address: s.address ?? t('sessions.unknownAddress'),
                    })}
                    button={t('sessions.end.button')}
                    action={`/account/sessions/${s.id}/sign-out`}
                    api={{
                      method: 'DELETE',
                      path: `/api/account/sessions/${encodeURIComponent(s.id)}`,
                      after: 'remove-row',
                      status: 'sessions-status',
                      done: t('sessions.end.done'),
                    }}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {others > 0 ? (
        <div id="sign-out-others">
          <ConfirmForm
            summary={t('sessions.others.summary')}
            wording={t.plural('sessions.others.wording', others)}
            button={t('sessions.others.button')}
            action="/account/sessions/sign-out-others"
            api={{
              method: 'POST',
              path: '/api/account/sessions/sign-out-others',
              after: 'sessions-others',
              status: 'sessions-status',
              done: t('sessions.others.done'),
            }}
            wide
          />
        </div>
      ) : null}
      <p id="sessions-status" role="status" aria-live="polite" />
    </section>
  );
}

export function AccountConsole(props: { view: ConsoleView; problem: AccountProblem | null }) {
  const { view, problem } = props;
  const t = useT(messages);
  return (
    <>
      <section aria-labelledby="profile-edit-title">
        <h2 id="profile-edit-title">{t('profileEdit.title')}</h2>
        <SectionError problem={problem} section="profile" />
        <form
          method="post"
          action="/account/profile"
          aria-describedby={problem?.section === 'profile' ? 'profile-error' : undefined}
        >
          <label for="display-name">{t('profileEdit.displayName')}</label>
          <input
            id="display-name"
            name="name"
            type="text"
            maxlength={200}
            value={view.name}
            aria-invalid={problem?.section === 'profile' ? 'true' : undefined}
            required
          />
          <button type="submit">{t('profileEdit.save')}</button>
        </form>
        <p>
          {richText(t('profileEdit.address'), {
            email: view.email,
            state: view.emailVerified ? (
              <strong data-email-verified="yes">{t('profileEdit.verified')}</strong>
            ) : (
              <strong data-email-verified="no">{t('profileEdit.notVerified')}</strong>
            ),
          })}
        </p>
        {view.emailVerified ? null : (
          <form method="post" action="/account/email/verification">
            <button type="submit" class="secondary">
              {t('profileEdit.sendVerification')}
            </button>
          </form>
        )}
      </section>

      <section aria-labelledby="password-title">
        <h2 id="password-title">{t('password.title')}</h2>
        <SectionError problem={problem} section="password" />
        <form
          method="post"
          action="/account/password"
          aria-describedby={problem?.section === 'password' ? 'password-error' : undefined}
        >
          <label for="current-password">{t('password.current')}</label>
          <input
            id="current-password"
            name="current_password"
            type="password"
            autocomplete="current-password"
            required
          />
          <label for="new-password">{t('password.new')}</label>
          <input
            id="new-password"
            name="new_password"
            type="password"
            autocomplete="new-password"
            minlength={6}
            maxlength={1024}
            required
          />
          <button type="submit">{t('password.change')}</button>
        </form>
        <p class="muted">{t('password.note')}</p>
      </section>

      <Sessions view={view} problem={problem} />

      <section aria-labelledby="log-title">
        <h2 id="log-title">{t('log.title')}</h2>
        <p class="muted">{t('log.retention')}</p>
        {view.events.length === 0 ? (
          <p>{t('log.none')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('log.when')}</th>
                <th scope="col">{t('log.what')}</th>
                <th scope="col">{t('sessions.address')}</th>
                <th scope="col">{t('sessions.device')}</th>
              </tr>
            </thead>
            <tbody id="security-log">
              {view.events.map((event) => (
                <tr data-event={event.kind}>
                  <td>
                    <When at={event.at} />
                  </td>
                  <td>
                    {wordingOf(t, `log.event.${event.kind}`, event.label)}
                    {event.detail ? <span class="muted"> ({event.detail})</span> : null}
                  </td>
                  <td>{event.address ?? t('sessions.unknown')}</td>
                  <td title={event.user_agent ?? ''}>{deviceName(event.user_agent, t)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
