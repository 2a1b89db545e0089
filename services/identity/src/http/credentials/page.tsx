/**
 * @module http/credentials/page
 * `/account/credentials`: the signed-in person's credentials (and those of the
 * organizations they administer), a form to issue one, a button to revoke one, and
 * a wallet offer shown as a QR code (the short by-reference URI) with its PIN.
 * Issuing and revoking are post-redirect-get: the post answers 303 to a page that
 * only reads, so a reload never issues twice. An issued credential is kept (sealed)
 * and shown at `/account/credentials/{id}` to its owner only. Markup: views.tsx.
 */

import { AppError } from '@xv/platform';
import { type App, activeMembership, cspNonce, requestLocale } from '@xv/platform/http';
import { translator } from '@xv/platform/i18n';
import { type ClientAssets, renderWithShell, shellOf, type Viewer } from '@xv/platform/pages';
import type { Context } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import QRCode from 'qrcode';
import { type CredentialOfferResult, type Credentials, isCredentialType } from '../../credentials/index.js';
import { errorText, type IdentityT, type MessageKey, messages, roleLabel } from '../../messages/index.js';
import type { IdentityContext } from '../context.js';
import { readForm } from '../forms.js';
import { issueFor } from './api.js';
import { type Choice, CredentialPage, CredentialsPage, type ListState, PATH } from './views.js';
import { offerFor, type SignedInSession } from './wallet.js';

/** What this person may issue: `<type>` or `<type>:<org_id>`. */
function choicesFor(session: SignedInSession, t: IdentityT): Choice[] {
  const choices: Choice[] = [{ value: 'IdentityCredential', label: t('credentials.choice.identity') }];
  for (const m of session.view.memberships) {
    choices.push({
      value: `MembershipCredential:${m.org_id}`,
      label: t('credentials.choice.membership', { org: m.org_name, role: roleLabel(t, m.role) }),
    });
    if (m.role === 'admin')
      choices.push({
        value: `OrganizationAttestation:${m.org_id}`,
        label: t('credentials.choice.attestation', { org: m.org_name }),
      });
  }
  return choices;
}

function parseChoice(value: string | undefined) {
  const [type, orgId] = (value ?? '').split(':');
  if (!isCredentialType(type)) return undefined;
  return orgId ? { type, orgId } : { type };
}

/** The notices of `?notice=`, after a post. */
const NOTICES: Record<string, MessageKey> = {
  issued: 'credentials.notice.issued',
  revoked: 'credentials.notice.revoked',
};
const noticeOf = (notice: string | undefined) => (notice ? NOTICES[notice] : undefined);

const CREDENTIAL_ID = /^vc_[0-9a-z]{26}$/;

export function registerCredentialsPage(
  app: App,
  identity: IdentityContext,
  credentials: Credentials,
  assets: ClientAssets,
) {
  const ownerOf = (session: SignedInSession) => ({
    userId: session.userId,
    adminOrgIds: session.view.memberships.filter((m) => m.role === 'admin').map((m) => m.org_id),
  });
  const frame = (c: Context, session: SignedInSession) => {
    const active = activeMembership(session.view, c);
    const viewer: Viewer = {
      name: session.view.user.name.trim() || session.view.user.email,
      organizations: session.view.memberships.map((m) => ({ id: m.org_id, name: m.org_name })),
      activeOrgId: active?.org_id,
      admin: active?.permissions.includes('members:manage') ?? false,
    };
    return { assets, viewer, nonce: cspNonce(c) };
  };
  /** The page for the request's viewer, in the request's language. */
  const send = (c: Context, session: SignedInSession, page: JSX.Element, status: 200 | 400 | 403 | 404) => {
    c.header('Cache-Control', 'no-store');
    return c.html(renderWithShell(shellOf(c, frame(c, session).viewer), page), status);
  };
  const wording = (c: Context) => translator(messages, requestLocale(c));
  const renderList = async (
    c: Context,
    session: SignedInSession,
    state: ListState,
    status: 200 | 400 | 403 | 404 = 200,
  ) => {
    const { userId, adminOrgIds } = ownerOf(session);
    const list = await credentials.issuer.listFor(session.realmId, userId, adminOrgIds);
    const page = (
      <CredentialsPage
        {...frame(c, session)}
        credentials={list}
        choices={choicesFor(session, wording(c))}
        state={state}
      />
    );
    return send(c, session, page, status);
  };

  const toLogin = (c: Context, path = PATH) =>
    c.redirect(`/login?${new URLSearchParams({ redirect: path })}`, 303);
  const failure = (c: Context, error: unknown) => {
    if (error instanceof AppError && error.status < 500)
      return { error: errorText(wording(c), error), status: error.status as 400 | 403 | 404 };
    throw error;
  };

  app.get(PATH, async (c) => {
    const session = await identity.currentSession(c);
    if (!session) return toLogin(c);
    return renderList(c, session, { notice: noticeOf(c.req.query('notice')) });
  });

  // Reads only: the result of an issue, by an id that must be the signed-in person's (or their organization's).
  app.get(`${PATH}/:id`, async (c) => {
    const id = c.req.param('id');
    const session = await identity.currentSession(c);
    if (!session) return toLogin(c, `${PATH}/${CREDENTIAL_ID.test(id) ? id : ''}`);
    const kept = CREDENTIAL_ID.test(id)
      ? await credentials.kept.read(session.realmId, id, ownerOf(session))
      : undefined;
    if (!kept) return renderList(c, session, { error: 'credentials.error.notYours' }, 404);
    const page = (
      <CredentialPage {...frame(c, session)} credential={kept} notice={noticeOf(c.req.query('notice'))} />
    );
    return send(c, session, page, 200);
  });

  app.post(`${PATH}/issue`, async (c) => {
    const session = await identity.currentSession(c);
    if (!session) return toLogin(c);
    const choice = parseChoice((await readForm(c)).credential);
    if (!choice) return renderList(c, session, { error: 'credentials.error.chooseToIssue' }, 400);
    try {
      const issued = await issueFor(identity, credentials, c, { type: choice.type, org_id: choice.orgId });
      await credentials.kept.keep(issued);
      return c.redirect(`${PATH}/${issued.id}?notice=issued`, 303);
    } catch (error) {
      const { error: message, status } = failure(c, error);
      return renderList(c, session, { failure: message }, status);
    }
  });

  app.post(`${PATH}/revoke`, async (c) => {
    const session = await identity.currentSession(c);
    if (!session) return toLogin(c);
    const id = (await readForm(c)).id ?? '';
    const outcome = await credentials.issuer.revoke(session.realmId, id, ownerOf(session));
    if (outcome === 'not_found') return renderList(c, session, { error: 'credentials.error.notFound' }, 404);
    if (outcome === 'forbidden') return renderList(c, session, { error: 'credentials.error.ownerOnly' }, 403);
    return c.redirect(`${PATH}?notice=revoked`, 303);
  });

  app.post(`${PATH}/offer`, async (c) => {
    const session = await identity.currentSession(c);
    if (!session) return toLogin(c);
    const form = await readForm(c);
    const choice = parseChoice(form.credential);
    if (!choice) return renderList(c, session, { error: 'credentials.error.chooseForWallet' }, 400);
    let offer: CredentialOfferResult;
    try {
      offer = await offerFor(credentials, c, session, {
        types: [choice.type],
        orgId: choice.orgId,
        pin: form.pin === '1',
      });
    } catch (error) {
      const { error: message, status } = failure(c, error);
      return renderList(c, session, { failure: message }, status);
    }
    // The QR code holds the short by-reference URI: a wallet fetches the offer itself.
    const qrSvg = await QRCode.toString(offer.offerUriByReference, {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: 2,
    });
    return renderList(c, session, { offer: { ...offer, qrSvg } });
  });
}
