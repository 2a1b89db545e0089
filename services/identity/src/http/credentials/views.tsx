/**
 * @module http/credentials/views
 * The credentials pages' markup, in the platform's page shell: the list with the
 * issue and wallet forms (`/account/credentials`) and one credential with its claims
 * decoded (`/account/credentials/{id}`). Copy buttons carry what they copy in
 * `data-copy` (or name the field in `data-copy-from`); `client/credentials.ts` does
 * the copying. Styles: `client/credentials.css`.
 */
import { type ClientAssets, LocalTime, Page, richText, useT, type Viewer } from '@xv/platform/pages';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import {
  CREDENTIAL_CATALOGUE,
  type CredentialOfferResult,
  type CredentialSummary,
  isCredentialType,
  type KeptCredential,
} from '../../credentials/index.js';
import { type IdentityT, type MessageKey, messages, wordingOf } from '../../messages/index.js';

export const PATH = '/account/credentials';

export interface Choice {
  value: string;
  label: string;
}

export interface ListState {
  offer?: CredentialOfferResult & { qrSvg: string };
  notice?: MessageKey | undefined;
  /** The page's own error, by its catalogue key. */
  error?: MessageKey | undefined;
  /** An error of the service, already worded for the reader. */
  failure?: string | undefined;
}

interface Frame {
  assets: ClientAssets;
  viewer: Viewer;
  nonce: string;
}

/** Claims that are Unix times, shown with their date too. */
const TIMES = ['iat', 'exp', 'nbf'];
const Day = (props: { seconds: number }) => <LocalTime value={props.seconds * 1000} style="date" />;
const typeName = (t: IdentityT, type: string) =>
  wordingOf(t, `credentials.kind.${type}`, isCredentialType(type) ? CREDENTIAL_CATALOGUE[type].name : type);

function CredentialsFrame(props: Frame & { title: string; children: Child }) {
  const t = useT(messages);
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
            {t('frame.signOut')}
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

function describe(t: IdentityT, credential: CredentialSummary): string {
  const claims = credential.claims;
  if (credential.type === 'IdentityCredential') return `${claims.name} <${claims.email}>`;
  if (credential.type === 'MembershipCredential')
    return `${claims.org_name} (${wordingOf(t, `role.${claims.role}`, String(claims.role))})`;
  return String(claims.name ?? credential.orgId ?? '');
}

function CopyButton(props: { label: string; value?: string; from?: string }) {
  const t = useT(messages);
  return (
    <button
      type="button"
      class="secondary copy"
      aria-label={props.label}
      {...(props.from ? { 'data-copy-from': props.from } : { 'data-copy': props.value ?? '' })}
    >
      {t('credential.copy')}
    </button>
  );
}

function Offer(props: { offer: NonNullable<ListState['offer']> }) {
  const { offer } = props;
  const t = useT(messages);
  return (
    <section aria-labelledby="offer-title">
      <h2 id="offer-title">{t('credentials.offer.title')}</h2>
      <div class="qr" role="img" aria-label={t('credentials.offer.qr')}>
        {raw(offer.qrSvg)}
      </div>
      {offer.txCode ? (
        <p>{richText(t('credentials.offer.pin'), { pin: <strong id="offer-pin">{offer.txCode}</strong> })}</p>
      ) : null}
      <p class="muted">
        {richText(t('credentials.offer.until'), {
          time: <LocalTime value={offer.expiresAt * 1000} />,
          link: <a href={offer.offerUriByReference}>{t('credentials.offer.open')}</a>,
        })}
      </p>
    </section>
  );
}

function IssueForms(props: { choices: Choice[] }) {
  const t = useT(messages);
  const options = props.choices.map((choice) => <option value={choice.value}>{choice.label}</option>);
  return (
    <>
      <section aria-labelledby="issue-title">
        <h2 id="issue-title">{t('credentials.issue.title')}</h2>
        <form method="post" action={`${PATH}/issue`}>
          <label for="issue-type">{t('credentials.issue.label')}</label>
          <select id="issue-type" name="credential">
            {options}
          </select>
          <button type="submit">{t('credentials.issue.submit')}</button>
        </form>
      </section>
      <section aria-labelledby="wallet-title">
        <h2 id="wallet-title">{t('credentials.wallet.title')}</h2>
        <p class="muted">{t('credentials.wallet.intro')}</p>
        <form method="post" action={`${PATH}/offer`}>
          <label for="offer-type">{t('credentials.issue.label')}</label>
          <select id="offer-type" name="credential">
            {options}
          </select>
          <label class="check">
            <input type="checkbox" name="pin" value="1" checked /> {t('credentials.wallet.pin')}
          </label>
          <button type="submit">{t('credentials.wallet.submit')}</button>
        </form>
      </section>
    </>
  );
}

export function CredentialsPage(
  props: Frame & { credentials: CredentialSummary[]; choices: Choice[]; state: ListState },
) {
  const { credentials, choices, state } = props;
  const t = useT(messages);
  return (
    <CredentialsFrame {...props} title={t('credentials.title')}>
      <h1>{t('credentials.heading')}</h1>
      <p>
        <a href="/account">{t('credentials.back')}</a>
      </p>
      <Messages
        notice={state.notice ? t(state.notice) : undefined}
        error={state.error ? t(state.error) : state.failure}
      />
      {state.offer ? <Offer offer={state.offer} /> : null}
      <section aria-labelledby="list-title">
        <h2 id="list-title">{t('credentials.issued')}</h2>
        {credentials.length === 0 ? (
          <p class="muted">{t('credentials.none')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('credentials.type')}</th>
                <th scope="col">{t('credentials.about')}</th>
                <th scope="col">{t('credentials.expires')}</th>
                <th scope="col">{t('credentials.status')}</th>
                <th scope="col">
                  <span class="skip">{t('credentials.action')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {credentials.map((credential) => (
                <tr>
                  <td>
                    <a href={`${PATH}/${credential.id}`}>{credential.type}</a>
                  </td>
                  <td>{describe(t, credential)}</td>
                  <td>
                    <Day seconds={credential.expiresAt} />
                  </td>
                  <td>{t(credential.revoked ? 'credentials.revoked' : 'credentials.valid')}</td>
                  <td>
                    {credential.revoked ? null : (
                      <form method="post" action={`${PATH}/revoke`} class="inline">
                        <input type="hidden" name="id" value={credential.id} />
                        <button
                          type="submit"
                          class="secondary"
                          aria-label={t('credentials.revokeOne', { id: credential.id })}
                        >
                          {t('credentials.revoke')}
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
export function CredentialPage(
  props: Frame & { credential: KeptCredential; notice?: MessageKey | undefined },
) {
  const { summary, sdjwt, claims } = props.credential;
  const t = useT(messages);
  const title = t('credential.heading', { type: typeName(t, summary.type) });
  return (
    <CredentialsFrame {...props} title={title}>
      <h1>{title}</h1>
      <p>
        <a href={PATH}>{t('credential.all')}</a>
      </p>
      <Messages notice={props.notice ? t(props.notice) : undefined} />
      <dl class="facts">
        <dt>{t('credential.id')}</dt>
        <dd>
          <code id="credential-id">{summary.id}</code>
        </dd>
        <dt>{t('credential.status')}</dt>
        <dd>{t(summary.revoked ? 'credentials.revoked' : 'credentials.valid')}</dd>
        <dt>{t('credential.validUntil')}</dt>
        <dd>
          <Day seconds={summary.expiresAt} />
        </dd>
      </dl>
      <p id="copy-status" class="muted" role="status" aria-live="polite" />
      {sdjwt ? (
        <>
          <section aria-labelledby="claims-title">
            <h2 id="claims-title">{t('credential.claims')}</h2>
            <table class="claims">
              <thead>
                <tr>
                  <th scope="col">{t('credential.claim')}</th>
                  <th scope="col">{t('credential.value')}</th>
                  <th scope="col">{t('credential.whenShown')}</th>
                  <th scope="col">
                    <span class="skip">{t('credential.copy')}</span>
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
                        <span class="muted">
                          {' ('}
                          <Day seconds={Number(claim.value)} />)
                        </span>
                      ) : null}
                    </td>
                    <td>{t(claim.selective ? 'credential.selective' : 'credential.always')}</td>
                    <td>
                      <CopyButton
                        label={t('credential.copyClaim', { name: claim.name })}
                        value={claim.value}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="sdjwt-title">
            <h2 id="sdjwt-title">SD-JWT</h2>
            <p class="muted">{t('credential.sdjwtIntro')}</p>
            <label for="sdjwt" class="skip">
              SD-JWT
            </label>
            <textarea id="sdjwt" class="sdjwt" readonly rows={6}>
              {sdjwt}
            </textarea>
            <CopyButton label={t('credential.copySdjwt')} from="sdjwt" />
          </section>
        </>
      ) : (
        <>
          <p class="muted">{t('credential.notKept')}</p>
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
