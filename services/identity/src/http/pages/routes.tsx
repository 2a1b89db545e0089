/**
 * @module http/pages/routes
 * The pages a person uses: `/login` (honours `aal`, `redirect`, `realm`),
 * `/login/2fa`, `/register` and `/account`. Server-rendered; their scripts and
 * stylesheets are the bundles of `src/client/`.
 */

import { MFA_COOKIE } from '@xv/platform';
import { type App, activeMembership, cspNonce } from '@xv/platform/http';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { findOrganization, findUserById, membersOf, REALM_ID } from '../../accounts/repository.js';
import { pendingInvitations } from '../../invitations/invitations.js';
import { type MessageKey, messages } from '../../messages/index.js';
import { findMfaChallenge } from '../../mfa/challenges.js';
import { remainingRecoveryCodes } from '../../mfa/recovery.js';
import { listOidcClients } from '../../oidc/clients.js';
import { consentsOf } from '../../oidc/consents.js';
import { passkeyListing } from '../../passkeys/webauthn.js';
import { securityLog } from '../../self-service/security-log.js';
import { listServiceClients } from '../../service-clients/repository.js';
import { isLevel, meetsLevel } from '../../sessions/assurance.js';
import type { IdentityContext } from '../context.js';
import { takeTyped, withQuery } from '../forms.js';
import { safeRedirect } from '../redirects.js';
import { type FormError, sendPage } from '../respond.js';
import { AccountPage, type AccountProblem } from './account.js';
import type { AccountSection } from './problem.js';
import { LoginPage, RegisterPage, TwoFactorPage } from './sign-in.js';

/** The catalogue key of an `/account?notice=` a form post sent, when it is one. */
function noticeOf(notice: string | undefined): MessageKey | null {
  const key = `notice.${notice}`;
  return key in messages.en ? (key as MessageKey) : null;
}

export function registerPageRoutes(app: App, identity: IdentityContext) {
  const { db, assets } = identity;
  const redirectOf = (value: unknown) => safeRedirect(value, identity.redirectPolicy);

  app.get('/', (c) => c.redirect('/account', 302));

  app.get('/login', async (c) => {
    const aal = c.req.query('aal');
    const realm = c.req.query('realm');
    const session = await identity.currentSession(c);
    const typed = takeTyped(c, 'login', '/login');
    return sendPage(
      identity,
      c,
      <LoginPage
        email={typed.email}
        error={c.req.query('error')}
        redirect={redirectOf(c.req.query('redirect'))}
        aal={isLevel(aal) ? aal : null}
        realm={realm && REALM_ID.test(realm) ? realm : null}
        signedInAs={session?.view.user.email}
        assets={assets}
      />,
    );
  });

  app.get('/login/2fa', async (c) => {
    if (!(await findMfaChallenge(db, getCookie(c, MFA_COOKIE))))
      return c.redirect('/login?error=expired', 303);
    return sendPage(identity, c, <TwoFactorPage error={c.req.query('error')} assets={assets} />);
  });

  app.get('/register', (c) => {
    const typed = takeTyped(c, 'register', '/register');
    const email = c.req.query('email') ?? typed.email;
    return sendPage(
      identity,
      c,
      <RegisterPage
        error={c.req.query('error')}
        redirect={redirectOf(c.req.query('redirect'))}
        email={email && email.length <= 254 ? email : null}
        name={typed.name}
        orgName={typed.orgName}
        assets={assets}
      />,
    );
  });

  app.get('/account', async (c) => {
    if (!(await identity.currentSession(c)))
      return c.redirect(
        withQuery('/login', { redirect: c.req.url.slice(c.req.url.indexOf('/account')) }),
        303,
      );
    return accountPage(identity, c);
  });
}

/**
 * A failed account-page form post, answered with the page: the error next to the
 * form of `section`, what was typed (`values`) kept. For `withFormErrors`.
 */
export function showAccountProblem(
  identity: IdentityContext,
  c: Context,
  section: AccountSection,
  values?: Record<string, string>,
) {
  return (error: FormError) =>
    accountPage(identity, c, { section, code: error.code, message: error.message, values }, error.status);
}

/**
 * `/account` for the request's session: the page itself, or its answer to a failed form post (the error
 * next to the form `problem.section` names, what was typed kept).
 */
export async function accountPage(
  identity: IdentityContext,
  c: Context,
  problem?: AccountProblem,
  status: ContentfulStatusCode = 200,
  /** New recovery codes a form post just made, shown this once. */
  shown: { recoveryCodes?: string[] } = {},
) {
  const { db, assets } = identity;
  const session = await identity.currentSession(c);
  if (!session) return c.redirect(withQuery('/login', { redirect: '/account' }), 303);
  const user = await findUserById(db, session.userId);
  if (!user) return c.redirect('/login', 303);
  const active = activeMembership(session.view, c);
  const admin = active?.permissions.includes('members:manage') ?? false;
  const manager = active?.permissions.includes('org:manage') ?? false;
  const org = manager && active ? await findOrganization(db, active.org_id) : undefined;
  const wanted = c.req.query('stepup');
  const redirect = safeRedirect(c.req.query('redirect'), identity.redirectPolicy);
  const stepUp = isLevel(wanted)
    ? {
        wanted,
        redirect,
        met: meetsLevel(session.aal, wanted),
        continueUrl: redirect ? withQuery('/step-up', { aal: wanted, redirect }) : '/account',
      }
    : null;
  const passkeys = await passkeyListing(db, user.id);
  return sendPage(
    identity,
    c,
    <AccountPage
      view={{
        session: session.view,
        activeOrgId: active?.org_id,
        publicAssistant: org ? org.public_assistant === 1 : null,
        require2fa: org ? org.require_2fa === 1 : null,
        totpEnabled: user.totp_secret !== null,
        recoveryCodesLeft: await remainingRecoveryCodes(db, user.id),
        passkeys,
        members: admin && active ? await membersOf(db, active.org_id) : null,
        serviceClients: admin && active ? await listServiceClients(db, session.realmId, active.org_id) : null,
        invitations: admin && active ? await pendingInvitations(db, active.org_id) : null,
        oidcApps: manager && active ? await listOidcClients(db, session.realmId, active.org_id) : null,
        notice: problem ? null : noticeOf(c.req.query('notice')),
        problem: problem ?? null,
        newRecoveryCodes: shown.recoveryCodes ?? null,
        console: {
          name: problem?.values?.name ?? user.name,
          email: user.email,
          emailVerified: user.email_verified_at !== null,
          currentSessionId: session.id,
          sessions: await identity.sessions.listOf(user.id),
          events: await securityLog(db, user.id, 20),
        },
        allowedApps: await consentsOf(db, user.id),
        stepUp,
      }}
      assets={assets}
      nonce={cspNonce(c)}
    />,
    status,
  );
}
