/**
 * @module http/credentials/page
 * `/account/credentials`: the signed-in person's credentials (and those of the
 * organizations they administer), a form to issue one, a button to revoke one, and
 * a wallet offer shown as a QR code with its PIN. Plain server-rendered forms, no
 * script: each form posts back here and the page answers with the result. Its
 * own styles are `src/client/credentials.css`.
 */

import { AppError } from '@xv/platform';
import type { App } from '@xv/platform/http';
import { type ClientAssets, Page } from '@xv/platform/pages';
import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import QRCode from 'qrcode';
import {
  CREDENTIAL_CATALOGUE,
  type CredentialOfferResult,
  type CredentialSummary,
  type Credentials,
  type CredentialType,
  type IssuedCredential,
  isCredentialType,
} from '../../credentials/index.js';
import type { IdentityContext } from '../context.js';
import { readForm } from '../forms.js';
import { issueFor } from './api.js';
import { offerFor, type SignedInSession } from './wallet.js';

type SessionRecord = SignedInSession;

const PATH = '/account/credentials';

interface Choice {
  value: string;
  label: string;
}

/** What this person may issue: `<type>` or `<type>:<org_id>`. */
function choicesFor(session: SessionRecord): Choice[] {
  const choices: Choice[] = [
    { value: 'IdentityCredential', label: 'Identity (your e-mail address and name)' },
  ];
  for (const m of session.view.memberships) {
    choices.push({
      value: `MembershipCredential:${m.org_id}`,
      label: `Membership of ${m.org_name} (${m.role})`,
    });
    if (m.role === 'admin')
      choices.push({ value: `OrganizationAttestation:${m.org_id}`, label: `Attestation of ${m.org_name}` });
  }
  return choices;
}

function parseChoice(value: string | undefined): { type: CredentialType; orgId?: string } | undefined {
  const [type, orgId] = (value ?? '').split(':');
  if (!isCredentialType(type)) return undefined;
  return orgId ? { type, orgId } : { type };
}

interface PageState {
  issued?: IssuedCredential;
  offer?: CredentialOfferResult & { qrSvg: string };
  notice?: string;
  error?: string;
}

/** The frame of identity's signed-in pages: product, home and the sign-out button. */
function IdentityPage(props: { assets: ClientAssets; title: string; children: Child }) {
  return (
    <Page
      title={props.title}
      product="XV Identity"
      home="/account"
      assets={props.assets}
      stylesheets={['credentials']}
      width="wide"
      nav={
        <form method="post" action="/api/auth/logout" class="inline">
          <button type="submit" class="secondary">
            Sign out
          </button>
        </form>
      }
    >
      {props.children}
    </Page>
  );
}

function CredentialsPage(props: {
  assets: ClientAssets;
  credentials: CredentialSummary[];
  choices: Choice[];
  state: PageState;
}) {
  const { credentials, choices, state } = props;
  return (
    <IdentityPage assets={props.assets} title="Credentials">
      <h1>Your credentials</h1>
      <p>
        <a href="/account">Back to your account</a>
      </p>
      {state.error ? (
        <p class="error" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.notice ? (
        <p class="notice" role="status">
          {state.notice}
        </p>
      ) : null}

      {state.issued ? (
        <section aria-labelledby="issued-title">
          <h2 id="issued-title">New {CREDENTIAL_CATALOGUE[state.issued.type].name} credential</h2>
          <p>
            Id <code>{state.issued.id}</code>, valid until{' '}
            {new Date(state.issued.expiresAt * 1000).toISOString().slice(0, 10)}. Copy the SD-JWT below into
            any verifier.
          </p>
          <label for="sdjwt">SD-JWT</label>
          <textarea id="sdjwt" class="sdjwt" readonly rows={6}>
            {state.issued.sdjwt}
          </textarea>
        </section>
      ) : null}

      {state.offer ? (
        <section aria-labelledby="offer-title">
          <h2 id="offer-title">Scan with your wallet</h2>
          <div class="qr" role="img" aria-label="QR code of the credential offer">
            {raw(state.offer.qrSvg)}
          </div>
          {state.offer.txCode ? (
            <p>
              Your wallet will ask for this PIN: <strong id="offer-pin">{state.offer.txCode}</strong>
            </p>
          ) : null}
          <p class="muted">
            The offer can be used once, until{' '}
            {new Date(state.offer.expiresAt * 1000).toISOString().slice(11, 16)} UTC. On this device:{' '}
            <a href={state.offer.offerUri}>open it in your wallet app</a>.
          </p>
        </section>
      ) : null}

      <section aria-labelledby="list-title">
        <h2 id="list-title">Issued to you</h2>
        {credentials.length === 0 ? (
          <p class="muted">No credentials yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">About</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="skip">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {credentials.map((credential) => (
                <tr>
                  <td>{credential.type}</td>
                  <td>{describe(credential)}</td>
                  <td>{new Date(credential.expiresAt * 1000).toISOString().slice(0, 10)}</td>
                  <td>{credential.revoked ? 'revoked' : 'valid'}</td>
                  <td>
                    {credential.revoked ? null : (
                      <form method="post" action={`${PATH}/revoke`} class="inline">
                        <input type="hidden" name="id" value={credential.id} />
                        <button type="submit" class="secondary" aria-label={`Revoke ${credential.id}`}>
                          Revoke
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="issue-title">
        <h2 id="issue-title">Issue a credential</h2>
        <form method="post" action={`${PATH}/issue`}>
          <label for="issue-type">Credential</label>
          <select id="issue-type" name="credential">
            {choices.map((choice) => (
              <option value={choice.value}>{choice.label}</option>
            ))}
          </select>
          <button type="submit">Issue</button>
        </form>
      </section>

      <section aria-labelledby="wallet-title">
        <h2 id="wallet-title">Add to a wallet</h2>
        <p class="muted">An OpenID4VCI offer your wallet app can scan.</p>
        <form method="post" action={`${PATH}/offer`}>
          <label for="offer-type">Credential</label>
          <select id="offer-type" name="credential">
            {choices.map((choice) => (
              <option value={choice.value}>{choice.label}</option>
            ))}
          </select>
          <label class="check">
            <input type="checkbox" name="pin" value="1" checked /> Protect it with a PIN
          </label>
          <button type="submit">Create offer</button>
        </form>
      </section>
    </IdentityPage>
  );
}

function describe(credential: CredentialSummary): string {
  const claims = credential.claims;
  if (credential.type === 'IdentityCredential') return `${claims.name} <${claims.email}>`;
  if (credential.type === 'MembershipCredential') return `${claims.org_name} (${claims.role})`;
  return String(claims.name ?? credential.orgId ?? '');
}

export function registerCredentialsPage(
  app: App,
  identity: IdentityContext,
  credentials: Credentials,
  assets: ClientAssets,
) {
  const render = async (
    c: Context,
    session: SessionRecord,
    state: PageState,
    status: 200 | 400 | 403 | 404 = 200,
  ) => {
    const adminOrgIds = session.view.memberships.filter((m) => m.role === 'admin').map((m) => m.org_id);
    const list = await credentials.issuer.listFor(session.realmId, session.userId, adminOrgIds);
    c.header('Cache-Control', 'no-store');
    return c.html(
      <CredentialsPage assets={assets} credentials={list} choices={choicesFor(session)} state={state} />,
      status,
    );
  };

  const signedIn = async (c: Context) => {
    const session = await identity.currentSession(c);
    return session ?? null;
  };
  const toLogin = (c: Context) => c.redirect(`/login?${new URLSearchParams({ redirect: PATH })}`, 303);
  const failure = (error: unknown) => {
    if (error instanceof AppError && error.status < 500)
      return { error: error.message, status: error.status as 400 | 403 | 404 };
    throw error;
  };

  app.get(PATH, async (c) => {
    const session = await signedIn(c);
    return session ? render(c, session, {}) : toLogin(c);
  });

  app.post(`${PATH}/issue`, async (c) => {
    const session = await signedIn(c);
    if (!session) return toLogin(c);
    const choice = parseChoice((await readForm(c)).credential);
    if (!choice) return render(c, session, { error: 'Choose a credential to issue.' }, 400);
    try {
      const issued = await issueFor(identity, credentials, c, { type: choice.type, org_id: choice.orgId });
      return render(c, session, { issued, notice: 'Credential issued.' });
    } catch (error) {
      const { error: message, status } = failure(error);
      return render(c, session, { error: message }, status);
    }
  });

  app.post(`${PATH}/revoke`, async (c) => {
    const session = await signedIn(c);
    if (!session) return toLogin(c);
    const id = (await readForm(c)).id ?? '';
    const adminOrgIds = session.view.memberships.filter((m) => m.role === 'admin').map((m) => m.org_id);
    const outcome = await credentials.issuer.revoke(session.realmId, id, {
      userId: session.userId,
      adminOrgIds,
    });
    if (outcome === 'not_found') return render(c, session, { error: 'No credential has that id.' }, 404);
    if (outcome === 'forbidden')
      return render(c, session, { error: 'Only the owner of the credential can revoke it.' }, 403);
    return render(c, session, { notice: 'Credential revoked.' });
  });

  app.post(`${PATH}/offer`, async (c) => {
    const session = await signedIn(c);
    if (!session) return toLogin(c);
    const form = await readForm(c);
    const choice = parseChoice(form.credential);
    if (!choice) return render(c, session, { error: 'Choose a credential for your wallet.' }, 400);
    let offer: CredentialOfferResult;
    try {
      offer = await offerFor(credentials, c, session, {
        types: [choice.type],
        orgId: choice.orgId,
        pin: form.pin === '1',
      });
    } catch (error) {
      const { error: message, status } = failure(error);
      return render(c, session, { error: message }, status);
    }
    const qrSvg = await QRCode.toString(offer.offerUri, {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: 2,
    });
    return render(c, session, { offer: { ...offer, qrSvg } });
  });
}
