/**
 * The chat page's script. It keeps the session id in localStorage, loads the
 * history from `/api/state`, sends messages to `/api/chat?marks=1` and renders the
 * answer as plain text while it streams, turning tool marks (U+001E, a JSON
 * object, a newline) into visible badges.
 */

const KEY = 'xv-agent-session';
const MARK = '\u001e';
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const TOOL_LABELS: Record<string, string> = {
  knowledgeBaseSearch: 'Searched the knowledge base',
  estimateAiRoi: 'Estimated the AI return on investment',
  createTicket: 'Opened a ticket',
};

type Role = 'user' | 'assistant';

interface StoredMessage {
  role: Role;
  content: string;
  tools?: string[];
}

interface ToolMark {
  tool: string;
  ok: boolean;
}

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`The chat page has no #${id}.`);
  return found;
}

const log = element('log', HTMLOListElement);
const form = element('composer', HTMLFormElement);
const input = element('message', HTMLTextAreaElement);
const send = element('send', HTMLButtonElement);
const status = element('status', HTMLParagraphElement);
const sessionLabel = element('session-id', HTMLElement);

let session = localStorage.getItem(KEY) ?? '';
if (!SESSION_ID.test(session)) session = newSession();
showSession();

function newSession(): string {
  const id = crypto.randomUUID();
  localStorage.setItem(KEY, id);
  return id;
}

function showSession(): void {
  sessionLabel.textContent = session.slice(0, 8);
  sessionLabel.title = session;
}

const api = (path: string) => `${path}?session=${encodeURIComponent(session)}`;

interface MessageItem {
  item: HTMLLIElement;
  tools: HTMLUListElement;
  body: HTMLParagraphElement;
}

function addMessage(role: Role, text: string): MessageItem {
  const item = document.createElement('li');
  item.className = `message ${role}`;
  const who = document.createElement('span');
  who.className = 'who';
  who.textContent = role === 'user' ? 'You' : 'Agent';
  const tools = document.createElement('ul');
  tools.className = 'tools';
  tools.setAttribute('aria-label', 'Tools used');
  const body = document.createElement('p');
  body.className = 'body';
  body.textContent = text;
  item.append(who, tools, body);
  log.append(item);
  item.scrollIntoView({ block: 'end' });
  return { item, tools, body };
}

function addTool(message: MessageItem, name: string, ok: boolean): void {
  const badge = document.createElement('li');
  badge.className = ok ? 'tool' : 'tool failed';
  badge.dataset.tool = name;
  badge.textContent = `${ok ? '🔧 ' : '⚠ '}${TOOL_LABELS[name] ?? name}${ok ? '' : ' (failed)'}`;
  message.tools.append(badge);
}

function isToolMark(value: unknown): value is ToolMark {
  if (typeof value !== 'object' || value === null) return false;
  const mark = value as Partial<ToolMark>;
  return typeof mark.tool === 'string' && typeof mark.ok === 'boolean';
}

async function loadHistory(): Promise<void> {
  log.replaceChildren();
  try {
    const response = await fetch(api('/api/state'));
    if (!response.ok) return;
    const state = (await response.json()) as { messages: StoredMessage[] };
    for (const message of state.messages) {
      const shown = addMessage(message.role, message.content);
      for (const name of message.tools ?? []) addTool(shown, name, true);
    }
  } catch {
    status.textContent = 'Could not load the conversation.';
  }
}

/** Appends streamed text to the answer, turning complete tool marks into badges; returns what is left over. */
function consume(buffer: string, message: MessageItem): string {
  let rest = buffer;
  for (;;) {
    const at = rest.indexOf(MARK);
    if (at < 0) {
      message.body.textContent += rest;
      return '';
    }
    message.body.textContent += rest.slice(0, at);
    const end = rest.indexOf('\n', at);
    if (end < 0) return rest.slice(at);
    try {
      const mark: unknown = JSON.parse(rest.slice(at + 1, end));
      if (isToolMark(mark)) addTool(message, mark.tool, mark.ok);
    } catch {
      // Not a mark after all: skip it.
    }
    rest = rest.slice(end + 1);
  }
}

async function ask(text: string): Promise<void> {
  addMessage('user', text);
  const answer = addMessage('assistant', '');
  const { item, body } = answer;
  item.setAttribute('aria-busy', 'true');
  send.disabled = true;
  status.textContent = 'The agent is answering…';
  try {
    const response = await fetch(`${api('/api/chat')}&marks=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: text }),
    });
    if (!response.ok || !response.body) {
      const problem = (await response.json().catch(() => ({}))) as { message?: unknown };
      item.classList.add('error');
      body.textContent =
        typeof problem.message === 'string' && problem.message
          ? problem.message
          : `The agent could not answer (HTTP ${response.status}).`;
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += decoder.decode(value, { stream: true });
      buffer = consume(buffer, answer);
      item.scrollIntoView({ block: 'end' });
      if (done) break;
    }
    if (body.textContent?.includes('[agent error]')) item.classList.add('error');
  } catch {
    item.classList.add('error');
    body.textContent += '\n[The connection was lost.]';
  } finally {
    item.removeAttribute('aria-busy');
    send.disabled = false;
    status.textContent = '';
    input.focus();
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || send.disabled) return;
  input.value = '';
  void ask(text);
});

input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    form.requestSubmit();
  }
});

element('new-session', HTMLButtonElement).addEventListener('click', () => {
  session = newSession();
  showSession();
  log.replaceChildren();
  status.textContent = 'A new conversation has started.';
  input.focus();
});

void loadHistory();
