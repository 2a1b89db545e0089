/**
 * @module http/pages
 * The public pages, in the reader's language (English or Vietnamese). `/verify/<id>`:
 * a receipt's (receipt-page.tsx) or attestation's verification for a person, checked
 * on the server. `/verify` (and `/`): drop a proof file and it is checked in the
 * browser itself (client/verify.ts); the file is never uploaded (only the public key
 * set is fetched).
 */
import { type App, cspNonce, type SsoClient } from '@xv/platform/http';
import { type ClientAssets, renderWithShell, richText, shellOf, useT, viewerFor } from '@xv/platform/pages';
import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { Attestations } from '../attestations/attestations.js';
import type { Issuer, IssuerDirectory } from '../issuers/directory.js';
import { messages } from '../messages/index.js';
import { verdictWords } from '../messages/verdict-words.js';
import type { Receipts } from '../receipts/receipts.js';
import { TrustPage } from './frame.js';
import { ReceiptPage } from './receipt-page.js';
import { verifierRules } from './verdict-words.js';

const RECEIPT = /^rcpt_[0-9a-z]{26}$/;
const ATTESTATION = /^att_[0-9a-z]{26}$/;

export function registerPages(
  app: App,
  o: {
    receipts: Receipts;
    attestations: Attestations;
    directory: IssuerDirectory;
    assets: ClientAssets;
    /** Who is signed in, for the page header (the pages themselves are public). */
    sso: SsoClient;
  },
) {
  const { assets } = o;
  const html = async (c: Context, page: Child, status: 200 | 404 = 200) =>
    c.html(renderWithShell(shellOf(c, await viewerFor(o.sso, c)), page), status);
  // The address a person is given first is the checker itself, not a redirect or a 404.
  app.get('/', (c) => html(c, <DropPage assets={assets} nonce={cspNonce(c)} />));
  app.get('/verify', (c) => html(c, <DropPage assets={assets} nonce={cspNonce(c)} />));
  app.get('/verify/:id', async (c) => {
    const id = c.req.param('id');
    if (RECEIPT.test(id)) {
      const row = await o.receipts.find(id).catch(() => null);
      if (row)
        return html(
          c,
          <ReceiptPage
            assets={assets}
            nonce={cspNonce(c)}
            receipt={o.receipts.view(row)}
            result={await o.receipts.verifyReceipt(id)}
          />,
        );
    } else if (ATTESTATION.test(id)) {
      const found = await o.attestations.find(id).catch(() => null);
      if (found)
        return html(
          c,
          <AttestationPage
            assets={assets}
            attestation={{
              attestationId: found.row.attestation_id,
              issuerId: found.row.org_id,
              issuer: await o.directory.resolve(found.row.org_id).catch(() => null),
              schema: found.row.schema,
              subject: found.row.subject,
              digest: found.row.digest,
              uid: found.row.uid,
              attester: found.row.attester,
              valid: found.valid,
              ...(found.reason ? { reason: found.reason } : {}),
            }}
          />,
        );
    }
    return html(c, <NotFoundPage assets={assets} id={id} />, 404);
  });
}

interface AttestationFacts {
  attestationId: string;
  issuerId: string;
  /** The organization's public record; null when identity does not know it (or does not answer). */
  issuer: Issuer | null;
  schema: string;
  subject: string;
  digest: string;
  uid: string;
  attester: string;
  valid: boolean;
  reason?: string;
}

function AttestationPage({
  assets,
  attestation: a,
}: {
  assets: ClientAssets;
  attestation: AttestationFacts;
}) {
  const t = useT(messages);
  const issuerName = a.issuer?.name;
  const apiPath = `/api/attestations/${a.attestationId}`;
  return (
    <TrustPage assets={assets} title={t('attestation.title', { id: a.attestationId })}>
      <h1>{t('attestation.heading')}</h1>
      <p role="status" class={`verdict ${a.valid ? 'valid' : 'invalid'}`}>
        {a.valid
          ? t('attestation.valid', { issuer: issuerName ?? t('verdict.theIssuer') })
          : verdictWords(t, a, issuerName)}
      </p>
      <dl>
        <dt>{t('attestation.issuer')}</dt>
        <dd>{issuerName ?? t('attestation.unnamedIssuer')}</dd>
        <dt>DID</dt>
        <dd class="mono">{a.issuer?.did ?? a.issuerId}</dd>
        <dt>{t('attestation.attester')}</dt>
        <dd class="mono">{a.attester}</dd>
        <dt>{t('attestation.schema')}</dt>
        <dd class="mono">{a.schema}</dd>
        <dt>{t('attestation.subject')}</dt>
        <dd class="mono">{a.subject}</dd>
        <dt>{t('attestation.digest')}</dt>
        <dd class="mono">{a.digest}</dd>
        <dt>EAS UID</dt>
        <dd class="mono">{a.uid}</dd>
      </dl>
      <p>{richText(t('attestation.signed'), { link: <a href={apiPath}>{apiPath}</a> })}</p>
    </TrustPage>
  );
}

function NotFoundPage(props: { assets: ClientAssets; id: string }) {
  const t = useT(messages);
  return (
    <TrustPage assets={props.assets} title={t('notFound.title')}>
      <h1>{t('notFound.heading')}</h1>
      <p role="status" class="verdict neutral">
        {richText(t('notFound.none'), { id: <code>{props.id}</code> })}
      </p>
      <p>{richText(t('notFound.checker'), { checker: <a href="/verify">{t('receipt.checker')}</a> })}</p>
    </TrustPage>
  );
}

/** The rule the in-browser verifier needs, as JSON a script block carries (never executed). */
const RULES_JSON = JSON.stringify(verifierRules).replace(/</g, '\\u003c');

function DropPage(props: { assets: ClientAssets; nonce: string }) {
  const t = useT(messages);
  return (
    <TrustPage assets={props.assets} title={t('drop.title')}>
      <h1>{t('drop.heading')}</h1>
      <p>{t('drop.intro')}</p>
      <div id="drop">
        <p>{t('drop.zone')}</p>
        <label for="proof-file">{t('drop.choose')} </label>
        <input id="proof-file" type="file" accept=".json,application/json" />
      </div>
      <section aria-live="polite" aria-label={t('drop.result')}>
        <div id="result" role="status" />
      </section>
      <script nonce={props.nonce} type="application/json" id="verifier-rules">
        {raw(RULES_JSON)}
      </script>
      <script nonce={props.nonce} type="module" src={props.assets.script('verify')} />
    </TrustPage>
  );
}
