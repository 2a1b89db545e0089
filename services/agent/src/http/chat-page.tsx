/**
 * @module http/chat-page
 * `GET /`: the chat page for a person. Answers stream in as they are written;
 * the session id lives in the browser (localStorage), so a reload continues the
 * conversation; answers render as sanitised Markdown, a badge shows each tool
 * the agent used and the documents a knowledge search cited link to the
 * knowledge reader. Without a model, an organization's admin is told which
 * settings to set, anyone else gets a short notice. The page's script and
 * styles are the `chat` bundles (`src/client/chat.ts`, `chat.css`); no external
 * assets. It shows who is signed in and for which organization, or offers to
 * sign in; a visitor who is not signed in gets the anonymous owner cookie here,
 * so their conversations are theirs alone. It speaks the reader's language
 * (`messages/`), as its script does.
 */
import type { App, SsoClient } from '@xv/platform/http';
import { type ClientAssets, Page, renderWithShell, shellOf, useT, viewerOf } from '@xv/platform/pages';
import type { Principal } from '../access/principal.js';
import { messages } from '../messages/index.js';
import { issueOwnerCookie, principalOf } from './principal.js';

export const PRODUCT = 'XV Agent';

export interface ChatPageOptions {
  assets: ClientAssets;
  maxMessageChars: number;
  sso: SsoClient;
  sharedDomain: string;
  identityUrl: string;
  /** This service's public URL: where sign-in comes back to. */
  agentUrl: string;
  /** The knowledge base's public URL: cited documents link to its reader (`/library/<docId>`). */
  knowledgeUrl: string;
  /** Whether a model answers; without one, answers quote the knowledge base. */
  modelConfigured: boolean;
}

/** The permission of an organization's admins: they are the ones who can have a model set up. */
const ORG_MANAGE = 'org:manage';

/** Without a model: an admin reads what to set, anyone else a short notice. */
function NoModelNotice({ principal }: { principal: Principal }) {
  const t = useT(messages);
  const admin = principal.kind === 'person' && principal.active?.permissions.includes(ORG_MANAGE);
  if (!admin)
    return (
      <p id="no-model" class="notice" role="note">
        {t('chat.noModel.notice')}
      </p>
    );
  return (
    <section id="no-model" class="notice" aria-labelledby="no-model-title">
      <h2 id="no-model-title">{t('chat.noModel.title')}</h2>
      <p>{t('chat.noModel.intro')}</p>
      <ul>
        <li>
          {t('chat.noModel.openAi')} <code>MODEL_BASE_URL</code>, <code>MODEL_API_KEY</code>,{' '}
          <code>MODEL_NAME</code>
        </li>
        <li>
          {t('chat.noModel.workersAi')} <code>XV_WORKERS_AI_ACCOUNT_ID</code>,{' '}
          <code>XV_WORKERS_AI_TOKEN</code> ({t('chat.noModel.optionally')} <code>XV_WORKERS_AI_MODEL</code>)
        </li>
      </ul>
      <p>{t('chat.noModel.docs')}</p>
    </section>
  );
}

function WhoAmI({
  principal,
  signInUrl,
  accountUrl,
}: {
  principal: Principal;
  signInUrl: string;
  accountUrl: string;
}) {
  const t = useT(messages);
  if (principal.kind !== 'person')
    return (
      <p class="who-am-i">
        {t('chat.who.anonymous')} <a href={signInUrl}>{t('chat.who.signIn')}</a>
      </p>
    );
  return (
    <p class="who-am-i">
      {t('chat.who.signedInAs')} <strong>{principal.person.user.name}</strong> ({principal.person.user.email})
      {principal.active ? (
        <>
          {' '}
          {t('chat.who.forOrganization')} <strong>{principal.active.org_name}</strong>
        </>
      ) : null}
      . <a href={accountUrl}>{t('chat.who.account')}</a>
    </p>
  );
}

function ChatPage({ options, principal }: { options: ChatPageOptions; principal: Principal }) {
  const t = useT(messages);
  const signInUrl = `${options.identityUrl}/login?${new URLSearchParams({ redirect: `${options.agentUrl}/` })}`;
  return (
    <Page
      title={t('chat.title')}
      product={PRODUCT}
      home="/"
      section="assistant"
      assets={options.assets}
      scripts={['chat']}
      stylesheets={['chat']}
    >
      <div class="chat-header">
        <h1>{t('chat.title')}</h1>
        <p class="session">
          {t('chat.conversation')} <code id="session-id" />
        </p>
        <button id="new-session" class="secondary" type="button">
          {t('chat.newConversation')}
        </button>
        <WhoAmI principal={principal} signInUrl={signInUrl} accountUrl={`${options.identityUrl}/account`} />
      </div>
      {options.modelConfigured ? null : <NoModelNotice principal={principal} />}
      <ol
        id="log"
        aria-label={t('chat.conversation')}
        aria-live="polite"
        data-knowledge-url={options.knowledgeUrl}
      />
      <form id="composer">
        <label for="message">{t('chat.message')}</label>
        <textarea
          id="message"
          name="message"
          required
          maxlength={options.maxMessageChars}
          placeholder={t('chat.placeholder')}
        />
        <button id="send" type="submit">
          {t('chat.send')}
        </button>
      </form>
      <p id="status" role="status" />
    </Page>
  );
}

export function registerChatPage(app: App, options: ChatPageOptions): void {
  app.get('/', async (c) => {
    const principal = await principalOf(c, options.sso);
    if (principal.kind === 'bare') issueOwnerCookie(c, options.sharedDomain);
    c.header('cache-control', 'no-store');
    const viewer = principal.kind === 'person' ? viewerOf(principal.person, c) : undefined;
    return c.html(renderWithShell(shellOf(c, viewer), <ChatPage options={options} principal={principal} />));
  });
}
