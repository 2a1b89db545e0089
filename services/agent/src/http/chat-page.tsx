/**
 * @module http/chat-page
 * `GET /`: the chat page for a person. Answers stream in as they are written;
 * the session id lives in the browser (localStorage), so a reload continues the
 * conversation; a badge shows each tool the agent used. The page's script and
 * styles are the `chat` bundles (`src/client/chat.ts`, `chat.css`); no external
 * assets. It shows who is signed in and for which organization, or offers to
 * sign in; a visitor who is not signed in gets the anonymous owner cookie here,
 * so their conversations are theirs alone.
 */
import type { App, SsoClient } from '@xv/platform/http';
import { type ClientAssets, renderPage } from '@xv/platform/pages';
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
      <ol id="log" aria-label="Conversation" aria-live="polite" />
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
        assets: options.assets,
        scripts: ['chat'],
        stylesheets: ['chat'],
        children: <ChatPage options={options} principal={principal} />,
      }),
    );
  });
}
