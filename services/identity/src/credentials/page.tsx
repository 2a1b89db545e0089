/**
 * @module credentials/page
 * `/account/credentials`: the signed-in person's credentials (and those of the
 * organizations they administer), a form to issue one, a button to revoke one, and
 * a wallet offer shown as a QR code with its PIN. Plain server-rendered forms: no
 * script, no external assets. Each form posts back here and the page answers with
 * the result.
 */

import { AppError } from '@xv/platform';
import type { App } from '@xv/platform/http';
import type { Context } from 'hono';
import { raw } from 'hono/html';
import QRCode from 'qrcode';
import { readForm, withQuery } from '../auth/web.js';
import { offerFor } from '../oid4vci/routes.js';
import type { CredentialOfferResult } from '../oid4vci/wallet.js';
import { Layout } from '../pages/layout.js';
import type { SessionRecord } from '../sessions/store.js';
import type { CredentialsContext } from './context.js';
import type { CredentialSummary, IssuedCredential } from './credentials.js';
import { issueFor } from './routes.js';
import { CREDENTIAL_CATALOGUE, type CredentialType, isCredentialType } from './types.js';

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

function CredentialsPage(props: {
  session: SessionRecord;
  credentials: CredentialSummary[];
  choices: Choice[];
  state: PageState;
}) {
  const { credentials, choices, state } = props;
  return (
    <Layout title="Credentials" signedIn>
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
          <textarea id="sdjwt" readonly rows={6} style="width:100%;font-family:ui-monospace,monospace">
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
                      <form method="post" action={`${PATH}/revoke`}>
                        <input type="hidden" name="id" value={credential.id} />
                        <button
                          type="submit"
                          class="secondary"
                          style="margin:0"
                          aria-label={`Revoke ${credential.id}`}
                        >
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
          <label style="font-weight:400">
            <input type="checkbox" name="pin" value="1" checked style="width:auto" /> Protect it with a PIN
          </label>
          <button type="submit">Create offer</button>
        </form>
      </section>
    </Layout>
  );
}

function describe(credential: CredentialSummary): string {
  const claims = credential.claims;
  if (credential.type === 'IdentityCredential') return `${claims.name} <${claims.email}>`;
  if (credential.type === 'MembershipCredential') return `${claims.org_name} (${claims.role})`;
  return String(claims.name ?? credential.orgId ?? '');
}

export function registerCredentialsPage(app: App, ctx: CredentialsContext) {
  const { identity } = ctx;

  const render = async (
    c: Context,
    session: SessionRecord,
    state: PageState,
    status: 200 | 400 | 403 | 404 = 200,
  ) => {
    const adminOrgIds = session.view.memberships.filter((m) => m.role === 'admin').map((m) => m.org_id);
    const credentials = await ctx.credentials.listFor(session.realmId, session.userId, adminOrgIds);
    c.header('Cache-Control', 'no-store');
    return c.html(
      <CredentialsPage
        session={session}
        credentials={credentials}
        choices={choicesFor(session)}
        state={state}
      />,
      status,
    );
  };

  const signedIn = async (c: Context) => {
    const session = await identity.currentSession(c);
    return session ?? null;
  };
  const toLogin = (c: Context) => c.redirect(withQuery('/login', { redirect: PATH }), 303);
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
      const issued = await issueFor(ctx, c, { type: choice.type, org_id: choice.orgId });
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
    const outcome = await ctx.credentials.revoke(session.realmId, id, {
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
      offer = await offerFor(ctx, c, session, {
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
