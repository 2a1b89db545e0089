/**
 * @module http/credentials/views
 * The credentials pages' markup, in the platform's page shell: the list with the
 * issue and wallet forms (`/account/credentials`) and one credential with its claims
 * decoded (`/account/credentials/{id}`). Copy buttons carry what they copy in
 * `data-copy` (or name the field in `data-copy-from`); `client/credentials.ts` does
 * the copying. Styles: `client/credentials.css`.
 */
import { type ClientAssets, Page, type Viewer } from '@xv/platform/pages';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import {
  CREDENTIAL_CATALOGUE,
  type CredentialOfferResult,
  type CredentialSummary,
  isCredentialType,
  type KeptCredential,
} from '../../credentials/index.js';

export const PATH = '/account/credentials';

export interface Choice {
  value: string;
  label: string;
}

export interface ListState {
  offer?: CredentialOfferResult & { qrSvg: string };
  notice?: string | undefined;
  error?: string | undefined;
}

interface Frame {
  assets: ClientAssets;
  viewer: Viewer;
  nonce: string;
}

/** Claims that are Unix times, shown with their date too. */
const TIMES = ['iat', 'exp', 'nbf'];
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const typeName = (type: string) => (isCredentialType(type) ? CREDENTIAL_CATALOGUE[type].name : type);

function CredentialsFrame(props: Frame & { title: string; children: Child }) {
  return (
    <Page
      title={props.title}
      product="XV Identity"
      home="/account"
      section="account"
      viewer={props.viewer}
      assets={props.assets}
      stylesheets={['identity', 'credentials']}
      scripts={['credentials']}
      nonce={props.nonce}
      width="wide"
      nav={
        <form method="post" action="/api/auth/logout">
          <button type="submit" class="secondary inline">
            Sign out
          </button>
        </form>
      }
    >
      {props.children}
    </Page>
  );
}

function Messages(props: { notice?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {props.error ? (
        <p class="error" role="alert">
          {props.error}
        </p>
      ) : null}
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
    </>
  );
}

function describe(credential: CredentialSummary): string {
  const claims = credential.claims;
  if (credential.type === 'IdentityCredential') return `${claims.name} <${claims.email}>`;
  if (credential.type === 'MembershipCredential') return `${claims.org_name} (${claims.role})`;
  return String(claims.name ?? credential.orgId ?? '');
}

function CopyButton(props: { label: string; value?: string; from?: string }) {
  return (
    <button
      type="button"
      class="secondary copy"
      aria-label={props.label}
      {...(props.from ? { 'data-copy-from': props.from } : { 'data-copy': props.value ?? '' })}
    >
      Copy
    </button>
  );
}

function Offer(props: { offer: NonNullable<ListState['offer']> }) {
  const { offer } = props;
  return (
    <section aria-labelledby="offer-title">
      <h2 id="offer-title">Scan with your wallet</h2>
      <div class="qr" role="img" aria-label="QR code of the credential offer">
        {raw(offer.qrSvg)}
      </div>
      {offer.txCode ? (
        <p>
          Your wallet will ask for this PIN: <strong id="offer-pin">{offer.txCode}</strong>
        </p>
      ) : null}
      <p class="muted">
        The offer can be used once, until {new Date(offer.expiresAt * 1000).toISOString().slice(11, 16)} UTC.
        On this device: <a href={offer.offerUriByReference}>open it in your wallet app</a>.
      </p>
    </section>
  );
}

function IssueForms(props: { choices: Choice[] }) {
  const options = props.choices.map((choice) => <option value={choice.value}>{choice.label}</option>);
  return (
    <>
      <section aria-labelledby="issue-title">
        <h2 id="issue-title">Issue a credential</h2>
        <form method="post" action={`${PATH}/issue`}>
          <label for="issue-type">Credential</label>
          <select id="issue-type" name="credential">
            {options}
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
            {options}
          </select>
          <label class="check">
            <input type="checkbox" name="pin" value="1" checked /> Protect it with a PIN
          </label>
          <button type="submit">Create offer</button>
        </form>
      </section>
    </>
  );
}

export function CredentialsPage(
  props: Frame & { credentials: CredentialSummary[]; choices: Choice[]; state: ListState },
) {
  const { credentials, choices, state } = props;
  return (
    <CredentialsFrame {...props} title="Credentials">
      <h1>Your credentials</h1>
      <p>
        <a href="/account">Back to your account</a>
      </p>
      <Messages notice={state.notice} error={state.error} />
      {state.offer ? <Offer offer={state.offer} /> : null}
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
                  <td>
                    <a href={`${PATH}/${credential.id}`}>{credential.type}</a>
                  </td>
                  <td>{describe(credential)}</td>
                  <td>{day(credential.expiresAt)}</td>
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
      <IssueForms choices={choices} />
    </CredentialsFrame>
  );
}

/** One credential: what it says, claim by claim, and its SD-JWT to copy into a verifier. */
export function CredentialPage(props: Frame & { credential: KeptCredential; notice?: string | undefined }) {
  const { summary, sdjwt, claims } = props.credential;
  return (
    <CredentialsFrame {...props} title={`${typeName(summary.type)} credential`}>
      <h1>{typeName(summary.type)} credential</h1>
      <p>
        <a href={PATH}>All your credentials</a>
      </p>
      <Messages notice={props.notice} />
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code id="credential-id">{summary.id}</code>
        </dd>
        <dt>Status</dt>
        <dd>{summary.revoked ? 'revoked' : 'valid'}</dd>
        <dt>Valid until</dt>
        <dd>{day(summary.expiresAt)}</dd>
      </dl>
      <p id="copy-status" class="muted" role="status" aria-live="polite" />
      {sdjwt ? (
        <>
          <section aria-labelledby="claims-title">
            <h2 id="claims-title">What it says</h2>
            <table class="claims">
              <thead>
                <tr>
                  <th scope="col">Claim</th>
                  <th scope="col">Value</th>
                  <th scope="col">When shown</th>
                  <th scope="col">
                    <span class="skip">Copy</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {claims.map((claim) => (
                  <tr>
                    <th scope="row">
                      <code>{claim.name}</code>
                    </th>
                    <td class="value">
                      {claim.value}
                      {TIMES.includes(claim.name) && /^\d+$/.test(claim.value) ? (
                        <span class="muted"> ({day(Number(claim.value))})</span>
                      ) : null}
                    </td>
                    <td>{claim.selective ? 'only if you choose' : 'always'}</td>
                    <td>
                      <CopyButton label={`Copy ${claim.name}`} value={claim.value} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="sdjwt-title">
            <h2 id="sdjwt-title">SD-JWT</h2>
            <p class="muted">Paste it into any verifier. It holds every claim above.</p>
            <label for="sdjwt" class="skip">
              SD-JWT
            </label>
            <textarea id="sdjwt" class="sdjwt" readonly rows={6}>
              {sdjwt}
            </textarea>
            <CopyButton label="Copy the SD-JWT" from="sdjwt" />
          </section>
        </>
      ) : (
        <>
          <p class="muted">
            This credential was issued to a wallet or through the API: its SD-JWT is with its holder, not kept
            here. It states:
          </p>
          <dl class="facts">
            {Object.entries(summary.claims).map(([name, value]) => (
              <>
                <dt>
                  <code>{name}</code>
                </dt>
                <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
              </>
            ))}
          </dl>
        </>
      )}
    </CredentialsFrame>
  );
}
