/**
 * @module http/pages/account
 * `/account`: the signed-in person's profile, organizations and roles, 2FA
 * (QR code and recovery codes), passkeys, members and service clients for
 * administrators, sign-out, and the way back to a page that asked for a step-up.
 * Its buttons and forms run `client/account.ts`, which updates each card in place;
 * destructive actions ask first (confirm.tsx).
 */

import type { IdentitySession } from '@xv/platform';
import { type ClientAssets, richText, useT } from '@xv/platform/pages';
import type { PendingInvitation } from '../../invitations/invitations.js';
import { errorText, type MessageKey, messages, roleLabel } from '../../messages/index.js';
import type { OidcClientView } from '../../oidc/clients.js';
import type { ConsentListing } from '../../oidc/consents.js';
import { AllowedAppsCard, OidcAppsCard } from '../oidc/account-card.js';
import { type MemberItem, MembersCard, type ServiceClientItem, ServiceClientsCard } from './admin.js';
import { ConfirmDialog } from './confirm.js';
import { AccountConsole, type ConsoleView } from './console.js';
import { type PasskeyItem, PasskeysCard, TotpCard } from './factors.js';
import { FormError, IdentityPage } from './frame.js';
import { PendingInvitations } from './invitation.js';
import type { AccountProblem } from './problem.js';

export type { AccountProblem, AccountSection } from './problem.js';

export interface AccountView {
  session: IdentitySession;
  activeOrgId: string | undefined;
  /** The active organization's public assistant setting; null when the viewer may not change it. */
  publicAssistant: boolean | null;
  /** The active organization's "members keep a second factor" setting; null when the viewer may not change it. */
  require2fa: boolean | null;
  totpEnabled: boolean;
  recoveryCodesLeft: number;
  passkeys: PasskeyItem[];
  members: MemberItem[] | null;
  serviceClients: ServiceClientItem[] | null;
  /** Pending invitations of the active organization, for its administrators. */
  invitations: PendingInvitation[] | null;
  /** What the form just posted did (`?notice=`), as its catalogue key. */
  notice: MessageKey | null;
  /** Why the form just posted failed, when the page answers it. */
  problem: AccountProblem | null;
  /** Recovery codes the form just made, shown this once. */
  newRecoveryCodes: string[] | null;
  console: ConsoleView;
  /** The apps the person allowed to sign them in with XV. */
  allowedApps: ConsentListing[];
  /** The active organization's apps of "Sign in with XV", for its administrators; else null. */
  oidcApps: OidcClientView[] | null;
  /** A page asked for a level the session does not have yet. */
  stepUp: { wanted: string; redirect: string | null; met: boolean; continueUrl: string } | null;
}

function StepUpBanner(props: { view: AccountView }) {
  const { stepUp, passkeys, totpEnabled } = props.view;
  const t = useT(messages);
  if (!stepUp) return null;
  if (stepUp.met)
    return (
      <section aria-labelledby="stepup-title">
        <h2 id="stepup-title">{t('stepUp.met', { level: stepUp.wanted })}</h2>
        <a class="button" href={stepUp.continueUrl}>
          {t('stepUp.continue')}
        </a>
      </section>
    );
  const strongPasskey = passkeys.some((p) => p.aal === 'AAL3');
  const anyPasskey = passkeys.length > 0;
  const canVerify = stepUp.wanted === 'AAL3' ? strongPasskey : anyPasskey;
  return (
    <section aria-labelledby="stepup-title">
      <h2 id="stepup-title">{t('stepUp.needed', { level: stepUp.wanted })}</h2>
      {canVerify ? (
        <button
          type="button"
          data-passkey-login
          data-redirect={stepUp.redirect ?? ''}
          data-aal={stepUp.wanted}
        >
          {t('stepUp.verifyPasskey')}
        </button>
      ) : stepUp.wanted === 'AAL3' ? (
        <p>{t('stepUp.addPasskey')}</p>
      ) : totpEnabled ? (
        <p>
          <a
            href={`/login?aal=AAL2${stepUp.redirect ? `&redirect=${encodeURIComponent(stepUp.redirect)}` : ''}`}
          >
            {t('stepUp.signInWithCode')}
          </a>
        </p>
      ) : (
        <p>{t('stepUp.setUpTwoFactor')}</p>
      )}
      <p id="passkey-status" role="status" aria-live="polite" />
      <a id="continue-link" class="button" href="/account" hidden>
        {t('stepUp.continue')}
      </a>
    </section>
  );
}

/** Whether the card of `section` is on the page (the admin cards are for administrators only). */
function cardShown(view: AccountView, section: string): boolean {
  if (section === 'members') return view.members !== null;
  if (section === 'clients') return view.serviceClients !== null;
  if (section === 'oidc-apps') return view.oidcApps !== null;
  if (section === 'invitations') return view.invitations !== null;
  return true;
}

/** TOTP, or a passkey that verifies the user: what makes authenticator changes need a recent AAL2. */
function hasSecondFactor(view: AccountView): boolean {
  return view.totpEnabled || view.passkeys.some((p) => p.aal !== 'AAL1');
}

export function AccountPage(props: { view: AccountView; assets: ClientAssets; nonce: string }) {
  const { view } = props;
  const { session } = view;
  const initial = session.user.name.trim().charAt(0).toUpperCase() || '?';
  const t = useT(messages);
  return (
    <IdentityPage
      title={t('account.title')}
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
      <div data-continue={view.stepUp?.continueUrl ?? ''} data-user-id={session.user.id} id="account-root">
        <h1>{t('account.title')}</h1>
        {view.notice ? (
          <p class="notice" role="status">
            {t(view.notice)}
          </p>
        ) : null}
        {view.problem && !cardShown(view, view.problem.section) ? (
          <FormError id={`${view.problem.section}-error`} text={errorText(t, view.problem)} />
        ) : null}
        <StepUpBanner view={view} />
        <section aria-labelledby="profile-title">
          <h2 id="profile-title">{t('profile.title')}</h2>
          <p>
            <span class="avatar" data-color={session.user.avatar_color} aria-hidden="true">
              {initial}
            </span>{' '}
            <strong>{session.user.name}</strong> · {session.user.email}
          </p>
          <p class="muted">
            {richText(t('profile.session'), {
              realm: <code>{session.realmId}</code>,
              methods: session.amr.join(' + '),
              level: <strong id="session-aal">{session.aal}</strong>,
            })}
          </p>
          <p>
            <a href="/account/credentials">{t('profile.credentials')}</a>
          </p>
        </section>

        <section aria-labelledby="orgs-title">
          <h2 id="orgs-title">{t('orgs.title')}</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('orgs.organization')}</th>
                <th scope="col">{t('orgs.role')}</th>
                <th scope="col">
                  <span class="muted">{t('orgs.activeColumn')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {session.memberships.map((m) => (
                <tr>
                  <td>{m.org_name}</td>
                  <td>{roleLabel(t, m.role)}</td>
                  <td>
                    {m.org_id === view.activeOrgId ? (
                      t('orgs.active')
                    ) : (
                      <button type="button" class="secondary inline" data-switch-org={m.org_id}>
                        {t('orgs.makeActive')}
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
                <input id="public-assistant" type="checkbox" checked={view.publicAssistant} />{' '}
                {t('orgs.publicAssistant')}
              </label>
            </p>
          )}
          {view.require2fa === null ? null : (
            <p>
              <label>
                <input id="require-2fa" type="checkbox" checked={view.require2fa} /> {t('orgs.require2fa')}
              </label>
            </p>
          )}
          <p id="org-status" role="status" aria-live="polite" />
        </section>

        {hasSecondFactor(view) ? (
          <p class="muted">{t('factors.freshProof')}</p>
        ) : (
          <section aria-labelledby="factor-password-title" id="factor-password-card">
            <h2 id="factor-password-title">{t('factors.passwordTitle')}</h2>
            <p>{t('factors.passwordIntro')}</p>
            <label for="factor-password">{t('factors.password')}</label>
            <input id="factor-password" type="password" autocomplete="current-password" />
          </section>
        )}

        <TotpCard
          enabled={view.totpEnabled}
          recoveryCodesLeft={view.recoveryCodesLeft}
          newRecoveryCodes={view.newRecoveryCodes}
          problem={view.problem}
        />
        <PasskeysCard passkeys={view.passkeys} showStatus={!view.stepUp} problem={view.problem} />
        {view.members ? <MembersCard members={view.members} problem={view.problem} /> : null}
        {view.invitations ? (
          <PendingInvitations invitations={view.invitations} problem={view.problem} />
        ) : null}
        {view.serviceClients ? (
          <ServiceClientsCard clients={view.serviceClients} problem={view.problem} />
        ) : null}
        {view.oidcApps ? <OidcAppsCard apps={view.oidcApps} problem={view.problem} /> : null}

        <AccountConsole view={view.console} problem={view.problem} />
        <AllowedAppsCard apps={view.allowedApps} problem={view.problem} />

        <section aria-labelledby="signout-title">
          <h2 id="signout-title">{t('signOut.title')}</h2>
          <form method="post" action="/api/auth/logout">
            <button type="submit">{t('signOut.everywhere')}</button>
          </form>
        </section>
        <ConfirmDialog />
      </div>
    </IdentityPage>
  );
}
