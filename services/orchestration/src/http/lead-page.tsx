/**
 * @module http/lead-page
 * The lead form at `/lead`: plain HTML that works without JavaScript, with no
 * external assets (Turnstile's widget script is the one exception, when it is the
 * configured challenge). With ALTCHA on, the `lead` script (`src/client/lead.ts`)
 * fetches a challenge, solves the proof of work with WebCrypto and fills the
 * hidden `altcha` field.
 */
import type { ClientAssets } from '@xv/platform/pages';
import { Page, useT } from '@xv/platform/pages';
import type { ChallengeKind } from '../leads/challenge.js';
import { messages } from '../messages/index.js';

/** Where Cloudflare serves the Turnstile widget's script and frame. */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

export interface LeadPageProps {
  assets: ClientAssets;
  challenge: ChallengeKind;
  turnstileSiteKey?: string | undefined;
  /** What the last post did: sent, or the API's error code with its own message as the fallback wording. */
  outcome?: { ok: true } | { ok: false; code: string; message: string } | undefined;
  values?: { name?: string; email?: string; company?: string } | undefined;
  /** The response's CSP nonce, which the Turnstile script tag carries. */
  nonce: string;
}

export function LeadPage({
  assets,
  challenge,
  turnstileSiteKey,
  outcome,
  values = {},
  nonce,
}: LeadPageProps) {
  const t = useT(messages);
  return (
    <Page
      title={t('lead.title')}
      product="XV"
      home="/"
      nonce={nonce}
      assets={assets}
      stylesheets={['lead']}
      scripts={challenge === 'altcha' ? ['lead'] : []}
      head={
        challenge === 'turnstile' ? (
          <script nonce={nonce} src={`${TURNSTILE_ORIGIN}/turnstile/v0/api.js`} async defer></script>
        ) : undefined
      }
    >
      <section>
        <h1>{t('lead.title')}</h1>
        <p class="hint">{t('lead.intro')}</p>
        <form id="lead-form" method="post" action="/lead">
          <label for="name">{t('lead.name')}</label>
          <input
            id="name"
            name="name"
            autocomplete="name"
            required
            maxlength={200}
            value={values.name ?? ''}
          />
          <label for="email">{t('lead.email')}</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="email"
            required
            maxlength={254}
            aria-describedby="email-hint"
            value={values.email ?? ''}
          />
          <p id="email-hint" class="hint">
            {t('lead.emailHint')}
          </p>
          <label for="company">{t('lead.company')}</label>
          <input
            id="company"
            name="company"
            autocomplete="organization"
            maxlength={200}
            value={values.company ?? ''}
          />
          {challenge === 'altcha' && <input type="hidden" id="altcha" name="altcha" value="" />}
          {challenge === 'turnstile' && <div class="cf-turnstile" data-sitekey={turnstileSiteKey}></div>}
          <button type="submit">{t('lead.send')}</button>
          <p
            id="status"
            class={outcome ? `status ${outcome.ok ? 'ok' : 'error'}` : 'status'}
            role="status"
            aria-live="polite"
          >
            {outcome ? outcomeText(t, outcome) : ''}
          </p>
        </form>
      </section>
    </Page>
  );
}

function outcomeText(
  t: ReturnType<typeof useT<typeof messages.en>>,
  outcome: NonNullable<LeadPageProps['outcome']>,
) {
  if (outcome.ok) return t('lead.sent');
  const key = `lead.error.${outcome.code}`;
  return t.has(key) ? t(key) : outcome.message;
}
