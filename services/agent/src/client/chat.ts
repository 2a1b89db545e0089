/**
 * The chat page's script. It keeps the session id in localStorage, loads the
 * history from `/api/state`, sends messages to `/api/chat?marks=1` and renders the
 * answer as sanitised Markdown while it streams, turning tool marks (U+001E, a
 * JSON object, a newline) into visible badges and the documents a knowledge
 * search cited into links to the knowledge reader. It speaks the page's language.
 */
import { localeOfTag, translator } from '@xv/platform/i18n';
import { messages } from '../messages/index.js';
import { renderMarkdown } from './lib/markdown.js';

const t = translator(messages, localeOfTag(document.documentElement.lang) ?? 'en');
const KEY = 'xv-agent-session';
const MARK = '\u001e';
/** How the answer's body says that the turn failed after it began (http/chat-stream.ts). */
const STREAM_ERROR_MARKER = '[agent error]';
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type Role = 'user' | 'assistant';

interface StoredMessage {
  role: Role;
  content: string;
  tools?: string[];
}

interface Source {
  docId: string;
  title: string;
}

interface ToolMark {
  tool: string;
  ok: boolean;
  sources?: Source[];
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
/** The knowledge reader's root; without a usable one, sources are listed without links. */
const knowledgeUrl = /^https?:\/\//.test(log.dataset.knowledgeUrl ?? '')
  ? (log.dataset.knowledgeUrl ?? '').replace(/\/+$/, '')
  : '';

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
  role: Role;
  tools: HTMLUListElement;
  body: HTMLDivElement;
  sources: HTMLUListElement;
  /** The answer's Markdown so far. */
  text: string;
}

function addMessage(role: Role, text: string): MessageItem {
  const item = document.createElement('li');
  item.className = `message ${role}`;
  const who = document.createElement('span');
  who.className = 'who';
  who.textContent = t(role === 'user' ? 'chat.you' : 'chat.agent');
  const tools = document.createElement('ul');
  tools.className = 'tools';
  tools.setAttribute('aria-label', t('chat.toolsUsed'));
  const body = document.createElement('div');
  body.className = 'body';
  const sources = document.createElement('ul');
  sources.className = 'sources';
  sources.setAttribute('aria-label', t('chat.sources'));
  item.append(who, tools, body, sources);
  log.append(item);
  const message = { item, role, tools, body, sources, text: '' };
  appendText(message, text);
  item.scrollIntoView({ block: 'end' });
  return message;
}

/** Adds to the message's text; an answer is rendered again as Markdown, a person's message stays plain text. */
function appendText(message: MessageItem, text: string): void {
  message.text += text;
  if (message.role === 'assistant') renderMarkdown(message.body, message.text);
  else message.body.textContent = message.text;
}

/** Shows a plain-text notice (an error) as the message's body. */
function showPlain(message: MessageItem, text: string): void {
  message.text = text;
  message.body.textContent = text;
}

function addTool(message: MessageItem, name: string, ok: boolean): void {
  const badge = document.createElement('li');
  badge.className = ok ? 'tool' : 'tool failed';
  badge.dataset.tool = name;
  const key = `chat.tool.${name}`;
  const label = t.has(key) ? t(key) : name;
  badge.textContent = `${ok ? '🔧 ' : '⚠ '}${ok ? label : t('chat.tool.failed', { tool: label })}`;
  message.tools.append(badge);
}

/** Lists the cited documents under the answer, each once, linked to the knowledge reader. */
function addSources(message: MessageItem, sources: Source[]): void {
  const shown = new Set([...message.sources.querySelectorAll('li')].map((li) => li.dataset.docId));
  for (const source of sources) {
    if (typeof source?.docId !== 'string' || shown.has(source.docId)) continue;
    shown.add(source.docId);
    const item = document.createElement('li');
    item.dataset.docId = source.docId;
    const title = typeof source.title === 'string' && source.title ? source.title : source.docId;
    if (knowledgeUrl) {
      const link = document.createElement('a');
      link.href = `${knowledgeUrl}/library/${encodeURIComponent(source.docId)}`;
      link.rel = 'noopener noreferrer';
      link.target = '_blank';
      link.textContent = title;
      item.append(link);
    } else item.textContent = title;
    message.sources.append(item);
  }
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
    status.textContent = t('chat.loadFailed');
  }
}

/** Appends streamed text to the answer, turning complete tool marks into badges; returns what is left over. */
function consume(buffer: string, message: MessageItem): string {
  let rest = buffer;
  for (;;) {
    const at = rest.indexOf(MARK);
    if (at < 0) {
      if (rest) appendText(message, rest);
      return '';
    }
    if (at > 0) appendText(message, rest.slice(0, at));
    const end = rest.indexOf('\n', at);
    if (end < 0) return rest.slice(at);
    try {
      const mark: unknown = JSON.parse(rest.slice(at + 1, end));
      if (isToolMark(mark)) {
        addTool(message, mark.tool, mark.ok);
        if (Array.isArray(mark.sources)) addSources(message, mark.sources);
      }
    } catch {
      // Not a mark after all: skip it.
    }
    rest = rest.slice(end + 1);
  }
}

/** Why the API refused the message, in the page's language; else its own wording, else the status. */
function refusal(status: number, problem: { error?: unknown; message?: unknown }): string {
  const key = `chat.error.${String(problem.error)}`;
  if (t.has(key)) return t(key);
  if (typeof problem.message === 'string' && problem.message) return problem.message;
  return t('chat.error.http', { status: String(status) });
}

/**
 * An answer that failed after it began ends with a line saying so (in the API's
 * English): shown instead as a notice in the page's language, the detail in its title.
 */
function endFailedAnswer(message: MessageItem): void {
  const at = message.text.indexOf(STREAM_ERROR_MARKER);
  if (at < 0) return;
  const detail = message.text.slice(at + STREAM_ERROR_MARKER.length).trim();
  message.item.classList.add('error');
  message.text = message.text.slice(0, at).trimEnd();
  renderMarkdown(message.body, message.text);
  const notice = document.createElement('p');
  notice.className = 'failure';
  notice.textContent = t('chat.answerStopped');
  notice.title = detail;
  message.body.append(notice);
}

async function ask(text: string): Promise<void> {
  addMessage('user', text);
  const answer = addMessage('assistant', '');
  const { item } = answer;
  item.setAttribute('aria-busy', 'true');
  send.disabled = true;
  status.textContent = t('chat.answering');
  try {
    const response = await fetch(`${api('/api/chat')}&marks=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: text }),
    });
    if (!response.ok || !response.body) {
      const problem = (await response.json().catch(() => ({}))) as { error?: unknown; message?: unknown };
      item.classList.add('error');
      showPlain(answer, refusal(response.status, problem));
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
    endFailedAnswer(answer);
  } catch {
    item.classList.add('error');
    appendText(answer, `\n\n${t('chat.connectionLost')}`);
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
  status.textContent = t('chat.started');
  input.focus();
});

void loadHistory();
