/**
 * @module http/pages/console
 * The account console's sections of `/account`: profile (display name, whether the address is verified),
 * password change, active sessions and devices with sign-out, and the security log. Plain forms that work
 * without script; a sign-out asks first (the dialog with script, a second step without). Times are UTC in
 * the page and shown in the reader's own time zone and language by the page's script.
 */
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

/** A moment, in UTC until the page's script rewrites it in the reader's locale (`data-local`). */
export function When(props: { at: number }) {
  const date = new Date(props.at);
  return (
    <time datetime={date.toISOString()} data-local="">
      {date.toISOString().replace('T', ' ').slice(0, 16)} UTC
    </time>
  );
}

/** A short name for a browser's `User-Agent`. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
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
  return browser && system ? `${browser} on ${system}` : userAgent.slice(0, 60);
}

function Sessions(props: { view: ConsoleView; problem: AccountProblem | null }) {
  const { sessions, currentSessionId } = props.view;
  const others = sessions.filter((s) => s.id !== currentSessionId).length;
  return (
    <section aria-labelledby="sessions-title" id="sessions-card">
      <h2 id="sessions-title">Sessions and devices</h2>
      <SectionError problem={props.problem} section="sessions" />
      <table>
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">Address</th>
            <th scope="col">Last seen</th>
            <th scope="col">
              <span class="muted">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr data-session={s.id} data-row={s.id} data-current={s.id === currentSessionId ? '' : undefined}>
              <td title={s.user_agent ?? ''}>{deviceName(s.user_agent)}</td>
              <td>{s.address ?? 'unknown'}</td>
              <td>
                <When at={s.last_seen_at} />
              </td>
              <td>
                {s.id === currentSessionId ? (
                  <strong>This session</strong>
                ) : (
                  <ConfirmForm
                    summary="Sign out…"
                    wording={`${deviceName(s.user_agent)} (${s.address ?? 'unknown address'}) will be signed out at once.`}
                    button="Sign out this session"
                    action={`/account/sessions/${s.id}/sign-out`}
                    api={{
                      method: 'DELETE',
                      path: `/api/account/sessions/${encodeURIComponent(s.id)}`,
                      after: 'remove-row',
                      status: 'sessions-status',
                      done: 'That session is signed out.',
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
            summary="Sign out all other sessions…"
            wording={`${others} other session${others === 1 ? '' : 's'} will end at once; this one stays.`}
            button="Sign out all other sessions"
            action="/account/sessions/sign-out-others"
            api={{
              method: 'POST',
              path: '/api/account/sessions/sign-out-others',
              after: 'sessions-others',
              status: 'sessions-status',
              done: 'Your other sessions are signed out.',
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
  return (
    <>
      <section aria-labelledby="profile-edit-title">
        <h2 id="profile-edit-title">Name and e-mail</h2>
        <SectionError problem={problem} section="profile" />
        <form
          method="post"
          action="/account/profile"
          aria-describedby={problem?.section === 'profile' ? 'profile-error' : undefined}
        >
          <label for="display-name">Display name</label>
          <input
            id="display-name"
            name="name"
            type="text"
            maxlength={200}
            value={view.name}
            aria-invalid={problem?.section === 'profile' ? 'true' : undefined}
            required
          />
          <button type="submit">Save name</button>
        </form>
        <p>
          {view.email}:{' '}
          {view.emailVerified ? (
            <strong data-email-verified="yes">verified</strong>
          ) : (
            <strong data-email-verified="no">not verified</strong>
          )}
        </p>
        {view.emailVerified ? null : (
          <form method="post" action="/account/email/verification">
            <button type="submit" class="secondary">
              Send me a verification link
            </button>
          </form>
        )}
      </section>

      <section aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <SectionError problem={problem} section="password" />
        <form
          method="post"
          action="/account/password"
          aria-describedby={problem?.section === 'password' ? 'password-error' : undefined}
        >
          <label for="current-password">Current password</label>
          <input
            id="current-password"
            name="current_password"
            type="password"
            autocomplete="current-password"
            required
          />
          <label for="new-password">New password (at least 6 characters)</label>
          <input
            id="new-password"
            name="new_password"
            type="password"
            autocomplete="new-password"
            minlength={6}
            maxlength={1024}
            required
          />
          <button type="submit">Change password</button>
        </form>
        <p class="muted">Changing it signs out your other sessions.</p>
      </section>

      <Sessions view={view} problem={problem} />

      <section aria-labelledby="log-title">
        <h2 id="log-title">Security log</h2>
        <p class="muted">
          The newest entries of the last 90 days; older ones, and any beyond the newest 500, are deleted.
        </p>
        {view.events.length === 0 ? (
          <p>Nothing yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Address</th>
                <th scope="col">Device</th>
              </tr>
            </thead>
            <tbody id="security-log">
              {view.events.map((event) => (
                <tr data-event={event.kind}>
                  <td>
                    <When at={event.at} />
                  </td>
                  <td>
                    {event.label}
                    {event.detail ? <span class="muted"> ({event.detail})</span> : null}
                  </td>
                  <td>{event.address ?? 'unknown'}</td>
                  <td title={event.user_agent ?? ''}>{deviceName(event.user_agent)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
