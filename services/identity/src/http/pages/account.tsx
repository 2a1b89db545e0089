/**
 * @module http/pages/account
 * `/account`: the signed-in person's profile, organizations and roles, 2FA
 * (QR code and recovery codes), passkeys, members and service clients for
 * administrators, sign-out, and the way back to a page that asked for a step-up.
 * Its buttons and forms run `client/account.ts`.
 */

import type { IdentitySession } from '@xv/platform';
import type { ClientAssets } from '@xv/platform/pages';
import { ROLES } from '../../accounts/roles.js';
import type { PendingInvitation } from '../../invitations/invitations.js';
import { SCOPE_DESCRIPTIONS } from '../../service-clients/repository.js';
import { AccountConsole, type ConsoleView } from './console.js';
import { IdentityPage } from './frame.js';
import { PendingInvitations } from './invitation.js';

export interface AccountView {
  session: IdentitySession;
  activeOrgId: string | undefined;
  /** The active organization's public assistant setting; null when the viewer may not change it. */
  publicAssistant: boolean | null;
  /** The active organization's "members keep a second factor" setting; null when the viewer may not change it. */
  require2fa: boolean | null;
  totpEnabled: boolean;
  recoveryCodesLeft: number;
  passkeys: { id: string; name: string; aal: string; created_at: number }[];
  members: { user_id: string; email: string; name: string; role: string }[] | null;
  serviceClients: { id: string; name: string; scopes: string[] }[] | null;
  /** Pending invitations of the active organization, for its administrators. */
  invitations: PendingInvitation[] | null;
  /** What the form just posted did (`?notice=`). */
  notice: string | null;
  console: ConsoleView;
  /** A page asked for a level the session does not have yet. */
  stepUp: { wanted: string; redirect: string | null; met: boolean; continueUrl: string } | null;
}

function StepUpBanner(props: { view: AccountView }) {
  const { stepUp, passkeys, totpEnabled } = props.view;
  if (!stepUp) return null;
  if (stepUp.met)
    return (
      <section aria-labelledby="stepup-title">
        <h2 id="stepup-title">You are signed in at {stepUp.wanted}</h2>
        <a class="button" href={stepUp.continueUrl}>
          Continue
        </a>
      </section>
    );
  const strongPasskey = passkeys.some((p) => p.aal === 'AAL3');
  const anyPasskey = passkeys.length > 0;
  const canVerify = stepUp.wanted === 'AAL3' ? strongPasskey : anyPasskey;
  return (
    <section aria-labelledby="stepup-title">
      <h2 id="stepup-title">A stronger sign-in is needed ({stepUp.wanted})</h2>
      {canVerify ? (
        <button
          type="button"
          data-passkey-login
          data-redirect={stepUp.redirect ?? ''}
          data-aal={stepUp.wanted}
        >
          Verify with your passkey
        </button>
      ) : stepUp.wanted === 'AAL3' ? (
        <p>
          Add a passkey below (a security key or this device, with its PIN or biometrics), then verify with
          it.
        </p>
      ) : totpEnabled ? (
        <p>
          <a
            href={`/login?aal=AAL2${stepUp.redirect ? `&redirect=${encodeURIComponent(stepUp.redirect)}` : ''}`}
          >
            Sign in again with your code
          </a>
        </p>
      ) : (
        <p>Set up two-factor sign-in below; you can then continue.</p>
      )}
      <p id="passkey-status" role="status" aria-live="polite" />
      <a id="continue-link" class="button" href="/account" hidden>
        Continue
      </a>
    </section>
  );
}

/** TOTP, or a passkey that verifies the user: what makes authenticator changes need a recent AAL2. */
function hasSecondFactor(view: AccountView): boolean {
  return view.totpEnabled || view.passkeys.some((p) => p.aal !== 'AAL1');
}

export function AccountPage(props: { view: AccountView; assets: ClientAssets; nonce: string }) {
  const { view } = props;
  const { session } = view;
  const initial = session.user.name.trim().charAt(0).toUpperCase() || '?';
  return (
    <IdentityPage
      title="Your account"
      signedIn
      viewer={{
        name: session.user.name.trim() || session.user.email,
        organizations: session.memberships.map((m) => ({ id: m.org_id, name: m.org_name })),
        activeOrgId: view.activeOrgId,
        admin: view.members !== null,
      }}
      assets={props.assets}
      scripts={['account']}
      nonce={props.nonce}
    >
      <div data-continue={view.stepUp?.continueUrl ?? ''} id="account-root">
        <h1>Your account</h1>
        {view.notice ? (
          <p class="notice" role="status">
            {view.notice}
          </p>
        ) : null}
        <StepUpBanner view={view} />
        <section aria-labelledby="profile-title">
          <h2 id="profile-title">Profile</h2>
          <p>
            <span class="avatar" data-color={session.user.avatar_color} aria-hidden="true">
              {initial}
            </span>{' '}
            <strong>{session.user.name}</strong> · {session.user.email}
          </p>
          <p class="muted">
            Realm <code>{session.realmId}</code> · signed in with {session.amr.join(' + ')} · level{' '}
            <strong id="session-aal">{session.aal}</strong>
          </p>
          <p>
            <a href="/account/credentials">Your verifiable credentials</a>
          </p>
        </section>

        <section aria-labelledby="orgs-title">
          <h2 id="orgs-title">Organizations</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Organization</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span class="muted">Active</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {session.memberships.map((m) => (
                <tr>
                  <td>{m.org_name}</td>
                  <td>{m.role}</td>
                  <td>
                    {m.org_id === view.activeOrgId ? (
                      'active'
                    ) : (
                      <button type="button" class="secondary inline" data-switch-org={m.org_id}>
                        Make active
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {view.publicAssistant === null ? null : (
            <p>
              <label>
                <input id="public-assistant" type="checkbox" checked={view.publicAssistant} /> Public
                assistant: visitors who are not signed in may chat with this organization's assistant, which
                searches only the documents you marked public
              </label>
            </p>
          )}
          {view.require2fa === null ? null : (
            <p>
              <label>
                <input id="require-2fa" type="checkbox" checked={view.require2fa} /> Require 2FA: members may
                not remove their last second factor (2FA or a passkey)
              </label>
            </p>
          )}
          <p id="org-status" role="status" aria-live="polite" />
        </section>

        {hasSecondFactor(view) ? (
          <p class="muted">
            Changing your second factors needs a verification (2FA or a passkey) in the last 10 minutes; you
            will be asked for one when needed.
          </p>
        ) : (
          <section aria-labelledby="factor-password-title">
            <h2 id="factor-password-title">Confirm it is you</h2>
            <p>Your account has no second factor yet: enter your password to add one (2FA or a passkey).</p>
            <label for="factor-password">Your password</label>
            <input id="factor-password" type="password" autocomplete="current-password" />
          </section>
        )}

        <section aria-labelledby="totp-title">
          <h2 id="totp-title">Two-factor sign-in</h2>
          {view.totpEnabled ? (
            <>
              <p>
                On. {view.recoveryCodesLeft} recovery code{view.recoveryCodesLeft === 1 ? '' : 's'} left.
              </p>
              <form id="totp-disable-form">
                <label for="totp-disable-code">Current code (or a recovery code) to turn it off</label>
                <input id="totp-disable-code" type="text" autocomplete="one-time-code" required />
                <button type="submit" class="secondary">
                  Turn off
                </button>
              </form>
              <details class="confirm" id="recovery-confirm">
                <summary>New recovery codes…</summary>
                <p>Your current recovery codes will stop working.</p>
                <button type="button" id="recovery-regenerate" class="secondary">
                  Make new recovery codes
                </button>
              </details>
            </>
          ) : (
            <>
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
                  <input
                    id="totp-code"
                    type="text"
                    inputmode="numeric"
                    autocomplete="one-time-code"
                    required
                  />
                  <button type="submit">Turn on</button>
                </form>
              </div>
            </>
          )}
          <div id="recovery" hidden>
            <h3>Recovery codes</h3>
            <ul id="recovery-codes" class="codes" />
          </div>
          <p id="totp-status" role="status" aria-live="polite" />
        </section>

        <section aria-labelledby="passkeys-title">
          <h2 id="passkeys-title">Passkeys</h2>
          {view.passkeys.length === 0 ? (
            <p>No passkeys yet.</p>
          ) : (
            <ul>
              {view.passkeys.map((p) => (
                <li>
                  {p.name} ({p.aal}){' '}
                  <button type="button" class="secondary inline" data-passkey-remove={p.id}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
          <label for="passkey-name">Name of the new passkey (optional)</label>
          <input id="passkey-name" type="text" maxlength={100} />
          <button type="button" id="passkey-add">
            Add a passkey
          </button>
          {view.stepUp ? null : <p id="passkey-status" role="status" aria-live="polite" />}
        </section>

        {view.members ? (
          <section aria-labelledby="members-title">
            <h2 id="members-title">Members</h2>
            <p class="muted" id="member-removal-note">
              Removing a member ends, within a second, their sessions' access to this organization and their
              knowledge-base tokens for it; service clients belong to the organization and stay.
            </p>
            <ul>
              {view.members.map((m) => (
                <li>
                  {m.name} · {m.email}{' '}
                  <select aria-label={`Role of ${m.name}`} data-member-role={m.user_id} class="inline-select">
                    {ROLES.map((role) => (
                      <option value={role} selected={role === m.role}>
                        {role}
                      </option>
                    ))}
                  </select>{' '}
                  <button type="button" class="secondary inline" data-member-remove={m.user_id}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
            <form id="member-form">
              <label for="member-email">E-mail of an existing user</label>
              <input id="member-email" type="email" required />
              <label for="member-role">Role</label>
              <select id="member-role">
                <option value="member">member</option>
                <option value="reviewer">reviewer</option>
                <option value="admin">admin</option>
              </select>
              <button type="submit">Add member</button>
            </form>
            <p id="member-status" role="status" aria-live="polite" />
          </section>
        ) : null}

        {view.invitations ? <PendingInvitations invitations={view.invitations} /> : null}

        {view.serviceClients ? (
          <section aria-labelledby="clients-title">
            <h2 id="clients-title">Service clients</h2>
            <ul>
              {view.serviceClients.map((client) => (
                <li>
                  {client.name} · <code>{client.scopes.join(' ')}</code>{' '}
                  <button type="button" class="secondary inline" data-client-revoke={client.id}>
                    Revoke
                  </button>
                </li>
              ))}
            </ul>
            <form id="client-form">
              <label for="client-name">Name</label>
              <input id="client-name" type="text" maxlength={100} required />
              <fieldset id="client-scopes">
                <legend>Scopes</legend>
                {Object.entries(SCOPE_DESCRIPTIONS).map(([scope, description]) => (
                  <label class="checkbox">
                    <input type="checkbox" name="client-scope" value={scope} /> <code>{scope}</code>:{' '}
                    {description}
                  </label>
                ))}
              </fieldset>
              <button type="submit">Create service client</button>
            </form>
            <div id="client-created" hidden>
              <p>Copy this token now; it is not shown again:</p>
              <p>
                <code id="client-token" />
              </p>
            </div>
            <p id="client-status" role="status" aria-live="polite" />
          </section>
        ) : null}

        <AccountConsole view={view.console} />

        <section aria-labelledby="signout-title">
          <h2 id="signout-title">Sign out</h2>
          <form method="post" action="/api/auth/logout">
            <button type="submit">Sign out of every XV site</button>
          </form>
        </section>
      </div>
    </IdentityPage>
  );
}
