/**
 * @module page/chat-page
 * `GET /`: the chat page for a person. Answers stream in as they are written;
 * the session id lives in the browser (localStorage), so a reload continues the
 * conversation; a badge shows each tool the agent used. No external assets.
 * It shows who is signed in and for which organization, or offers to sign in;
 * a visitor who is not signed in gets the anonymous owner cookie here, so their
 * conversations are theirs alone.
 */
import { type App, cspNonce, type SsoClient } from '@xv/platform/http';
import type { Child } from 'hono/jsx';
import { issueOwnerCookie, type Principal, principalOf } from '../principal.js';
import { CHAT_SCRIPT } from './chat-script.js';

const STYLE = `
:root { color-scheme: light dark; --accent: #2357c6; --muted: #667085; --bubble: #eef2fb; --error: #b42318; }
@media (prefers-color-scheme: dark) { :root { --accent: #8fb3ff; --muted: #98a2b3; --bubble: #1d2433; --error: #fda29b; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; display: flex; flex-direction: column; min-height: 100vh; }
header { display: flex; align-items: baseline; gap: 1rem; flex-wrap: wrap; }
h1 { font-size: 1.4rem; margin: 0; flex: 1; }
.session, .who-am-i { color: var(--muted); font-size: .9rem; margin: 0; }
.who-am-i { flex-basis: 100%; }
#log { list-style: none; padding: 0; margin: 1rem 0; flex: 1; }
.message { margin: .75rem 0; padding: .6rem .8rem; border-radius: .6rem; }
.message.user { background: var(--bubble); margin-left: 3rem; }
.message.assistant { border: 1px solid color-mix(in srgb, var(--muted) 40%, transparent); margin-right: 3rem; }
.message.error .body { color: var(--error); }
.who { font-weight: 600; font-size: .85rem; color: var(--muted); }
.body { margin: .2rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.tools { list-style: none; padding: 0; margin: .25rem 0 0; display: flex; gap: .4rem; flex-wrap: wrap; }
.tools:empty { display: none; }
.tool { font-size: .8rem; border: 1px solid var(--accent); color: var(--accent); border-radius: 1rem; padding: 0 .6rem; }
.tool.failed { border-color: var(--error); color: var(--error); }
form { display: flex; gap: .5rem; align-items: flex-end; position: sticky; bottom: 0; padding: .5rem 0; background: Canvas; }
label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
textarea { flex: 1; min-height: 3rem; font: inherit; padding: .5rem; border-radius: .5rem; border: 1px solid var(--muted); }
button { font: inherit; padding: .5rem 1rem; border-radius: .5rem; border: 1px solid var(--accent); background: var(--accent); color: Canvas; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button:disabled { opacity: .5; cursor: progress; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
#status { color: var(--muted); min-height: 1.5em; margin: 0; }
`;

export interface ChatPageOptions {
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

function ChatPage({ maxMessageChars, who, nonce }: { maxMessageChars: number; who: Child; nonce: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>XV Agent</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>
          <header>
            <h1>XV Agent</h1>
            <p class="session">
              Conversation <code id="session-id" />
            </p>
            <button id="new-session" class="secondary" type="button">
              New conversation
            </button>
            {who}
          </header>
          <ol id="log" aria-label="Conversation" aria-live="polite" />
          <form id="composer">
            <label for="message">Your message</label>
            <textarea
              id="message"
              name="message"
              required
              maxlength={maxMessageChars}
              placeholder="Ask about your documents, the value of AI for a team, or ask for a call back…"
            />
            <button id="send" type="submit">
              Send
            </button>
          </form>
          <p id="status" role="status" />
        </main>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: CHAT_SCRIPT }} />
      </body>
    </html>
  );
}

export function registerChatPage(app: App, options: ChatPageOptions): void {
  const signInUrl = `${options.identityUrl}/login?${new URLSearchParams({ redirect: `${options.agentUrl}/` })}`;
  const accountUrl = `${options.identityUrl}/account`;
  app.get('/', async (c) => {
    const principal = await principalOf(c, options.sso);
    if (principal.kind === 'bare') issueOwnerCookie(c, options.sharedDomain);
    const who = <WhoAmI principal={principal} signInUrl={signInUrl} accountUrl={accountUrl} />;
    c.header('cache-control', 'no-store');
    return c.html(
      `<!doctype html>${<ChatPage maxMessageChars={options.maxMessageChars} who={who} nonce={cspNonce(c)} />}`,
    );
  });
}
