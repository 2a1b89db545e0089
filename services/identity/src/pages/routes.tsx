/**
 * @module pages/routes
 * The pages a person uses: `/login` (honours `aal`, `redirect`, `realm`),
 * `/login/2fa`, `/register` and `/account`. Server-rendered, no external assets.
 */

import { MFA_COOKIE } from '@xv/platform';
import { type App, activeMembership, cspNonce } from '@xv/platform/http';
import { getCookie } from 'hono/cookie';
import { findOrganization, findUserById, membersOf } from '../accounts/repository.js';
import { withQuery } from '../auth/web.js';
import type { IdentityContext } from '../context.js';
import { findMfaChallenge } from '../mfa/challenges.js';
import { remainingRecoveryCodes } from '../mfa/recovery.js';
import { passkeyAssurance, passkeysOf } from '../passkeys/webauthn.js';
import { safeRedirect } from '../redirects.js';
import { listServiceClients } from '../service-clients/repository.js';
import { isLevel, meetsLevel } from '../sessions/assurance.js';
import { AccountPage } from './account.js';
import { LoginPage, RegisterPage, TwoFactorPage } from './sign-in.js';

const REALM_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function registerPageRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;
  const redirectOf = (value: unknown) => safeRedirect(value, identity.redirectPolicy);
  const noStore = { 'Cache-Control': 'no-store' };

  app.get('/', (c) => c.redirect('/account', 302));

  app.get('/login', async (c) => {
    const aal = c.req.query('aal');
    const realm = c.req.query('realm');
    const session = await identity.currentSession(c);
    return c.html(
      <LoginPage
        error={c.req.query('error')}
        redirect={redirectOf(c.req.query('redirect'))}
        aal={isLevel(aal) ? aal : null}
        realm={realm && REALM_ID.test(realm) ? realm : null}
        signedInAs={session?.view.user.email}
        nonce={cspNonce(c)}
      />,
      200,
      noStore,
    );
  });

  app.get('/login/2fa', async (c) => {
    if (!(await findMfaChallenge(db, getCookie(c, MFA_COOKIE))))
      return c.redirect('/login?error=expired', 303);
    return c.html(<TwoFactorPage error={c.req.query('error')} />, 200, noStore);
  });

  app.get('/register', (c) => c.html(<RegisterPage error={c.req.query('error')} />, 200, noStore));

  app.get('/account', async (c) => {
    const session = await identity.currentSession(c);
    if (!session)
      return c.redirect(
        withQuery('/login', { redirect: c.req.url.slice(c.req.url.indexOf('/account')) }),
        303,
      );
    const user = await findUserById(db, session.userId);
    if (!user) return c.redirect('/login', 303);
    const active = activeMembership(session.view, c);
    const admin = active?.permissions.includes('members:manage') ?? false;
    const manager = active?.permissions.includes('org:manage') ?? false;
    const org = manager && active ? await findOrganization(db, active.org_id) : undefined;
    const wanted = c.req.query('stepup');
    const redirect = redirectOf(c.req.query('redirect'));
    const stepUp = isLevel(wanted)
      ? {
          wanted,
          redirect,
          met: meetsLevel(session.aal, wanted),
          continueUrl: redirect ? withQuery('/step-up', { aal: wanted, redirect }) : '/account',
        }
      : null;
    const passkeys = (await passkeysOf(db, user.id)).map((p) => ({
      id: p.id,
      name: p.name,
      created_at: p.created_at,
      aal: passkeyAssurance({ deviceBound: p.device_bound === 1, userVerified: p.user_verified === 1 }),
    }));
    return c.html(
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
          serviceClients:
            admin && active ? await listServiceClients(db, session.realmId, active.org_id) : null,
          stepUp,
        }}
        nonce={cspNonce(c)}
      />,
      200,
      noStore,
    );
  });
}
