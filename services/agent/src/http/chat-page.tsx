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
 * so their conversations are theirs alone.
 */
import { type App, cspNonce, type SsoClient } from '@xv/platform/http';
import { type ClientAssets, renderPage, viewerOf } from '@xv/platform/pages';
import type { Principal } from '../access/principal.js';
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
  const admin = principal.kind === 'person' && principal.active?.permissions.includes(ORG_MANAGE);
  if (!admin)
    return (
      <p id="no-model" class="notice" role="note">
        The assistant is not connected to a language model yet, so for now it answers with passages quoted
        from the knowledge base, each with a link to its document.
      </p>
    );
  return (
    <section id="no-model" class="notice" aria-labelledby="no-model-title">
      <h2 id="no-model-title">No language model is configured</h2>
      <p>
        Until one is, answers quote the most relevant passages of the knowledge base. To have the assistant
        write answers, give the agent service one of these and restart it:
      </p>
      <ul>
        <li>
          an OpenAI-compatible endpoint: <code>MODEL_BASE_URL</code>, <code>MODEL_API_KEY</code> and{' '}
          <code>MODEL_NAME</code>,
        </li>
        <li>
          Cloudflare Workers AI: <code>XV_WORKERS_AI_ACCOUNT_ID</code> and <code>XV_WORKERS_AI_TOKEN</code>{' '}
          (optionally <code>XV_WORKERS_AI_MODEL</code>).
        </li>
      </ul>
      <p>The settings are described in the agent's documentation (docs/agent.md, "Settings").</p>
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
  if (principal.kind !== 'person')
    return (
      <p class="who-am-i">
        Not signed in: the assistant answers from public information only. <a href={signInUrl}>Sign in</a>
      </p>
    );
  return (
    <p class="who-am-i">
      Signed in as <strong>{principal.person.user.name}</strong> ({principal.person.user.email})
      {principal.active ? (
        <>
          {' '}
          for <strong>{principal.active.org_name}</strong>
        </>
      ) : null}
      . <a href={accountUrl}>Account and organization</a>
    </p>
  );
}

function ChatPage({ options, principal }: { options: ChatPageOptions; principal: Principal }) {
  const signInUrl = `${options.identityUrl}/login?${new URLSearchParams({ redirect: `${options.agentUrl}/` })}`;
  return (
    <>
      <div class="chat-header">
        <h1>Chat</h1>
        <p class="session">
          Conversation <code id="session-id" />
        </p>
        <button id="new-session" class="secondary" type="button">
          New conversation
        </button>
        <WhoAmI principal={principal} signInUrl={signInUrl} accountUrl={`${options.identityUrl}/account`} />
      </div>
      {options.modelConfigured ? null : <NoModelNotice principal={principal} />}
      <ol id="log" aria-label="Conversation" aria-live="polite" data-knowledge-url={options.knowledgeUrl} />
      <form id="composer">
        <label for="message">Your message</label>
        <textarea
          id="message"
          name="message"
          required
          maxlength={options.maxMessageChars}
          placeholder="Ask about your documents, the value of AI for a team, or ask for a call back…"
        />
        <button id="send" type="submit">
          Send
        </button>
      </form>
      <p id="status" role="status" />
    </>
  );
}

export function registerChatPage(app: App, options: ChatPageOptions): void {
  app.get('/', async (c) => {
    const principal = await principalOf(c, options.sso);
    if (principal.kind === 'bare') issueOwnerCookie(c, options.sharedDomain);
    c.header('cache-control', 'no-store');
    return c.html(
      renderPage({
        title: 'Chat',
        product: PRODUCT,
        home: '/',
        section: 'assistant',
        nonce: cspNonce(c),
        viewer: principal.kind === 'person' ? viewerOf(principal.person, c) : undefined,
        assets: options.assets,
        scripts: ['chat'],
        stylesheets: ['chat'],
        children: <ChatPage options={options} principal={principal} />,
      }),
    );
  });
}
