/**
 * @module page/chat-script
 * The chat page's script (plain browser JavaScript, served inline). It keeps the
 * session id in localStorage, loads the history from `/api/state`, sends messages
 * to `/api/chat?marks=1` and renders the answer as it streams, turning tool marks
 * (U+001E, JSON, newline) into visible badges.
 */
export const CHAT_SCRIPT = String.raw`
(() => {
  const KEY = 'xv-agent-session';
  const MARK = '\u001e';
  const TOOL_LABELS = {
    knowledgeBaseSearch: 'Searched the knowledge base',
    estimateAiRoi: 'Estimated the AI return on investment',
    createTicket: 'Opened a ticket',
  };
  const log = document.getElementById('log');
  const form = document.getElementById('composer');
  const input = document.getElementById('message');
  const send = document.getElementById('send');
  const status = document.getElementById('status');
  const sessionLabel = document.getElementById('session-id');

  let session = localStorage.getItem(KEY);
  if (!session || !/^[A-Za-z0-9._:-]{1,128}$/.test(session)) newSession();
  showSession();

  function newSession() {
    session = crypto.randomUUID();
    localStorage.setItem(KEY, session);
  }
  function showSession() {
    sessionLabel.textContent = session.slice(0, 8);
    sessionLabel.title = session;
  }
  const api = (path) => path + '?session=' + encodeURIComponent(session);

  function addMessage(role, text) {
    const item = document.createElement('li');
    item.className = 'message ' + role;
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = role === 'user' ? 'You' : 'Agent';
    const tools = document.createElement('ul');
    tools.className = 'tools';
    tools.setAttribute('aria-label', 'Tools used');
    const body = document.createElement('p');
    body.className = 'body';
    body.textContent = text || '';
    item.append(who, tools, body);
    log.append(item);
    item.scrollIntoView({ block: 'end' });
    return item;
  }
  function addTool(item, name, ok) {
    const badge = document.createElement('li');
    badge.className = 'tool' + (ok ? '' : ' failed');
    badge.dataset.tool = name;
    badge.textContent = (ok ? '🔧 ' : '⚠ ') + (TOOL_LABELS[name] || name) + (ok ? '' : ' (failed)');
    item.querySelector('.tools').append(badge);
  }

  async function loadHistory() {
    log.replaceChildren();
    try {
      const response = await fetch(api('/api/state'));
      if (!response.ok) return;
      const state = await response.json();
      for (const message of state.messages) {
        const item = addMessage(message.role, message.content);
        for (const name of message.tools || []) addTool(item, name, true);
      }
    } catch {
      status.textContent = 'Could not load the conversation.';
    }
  }

  async function ask(text) {
    addMessage('user', text);
    const item = addMessage('assistant', '');
    const body = item.querySelector('.body');
    item.setAttribute('aria-busy', 'true');
    send.disabled = true;
    status.textContent = 'The agent is answering…';
    try {
      const response = await fetch(api('/api/chat') + '&marks=1', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: text }),
      });
      if (!response.ok) {
        const problem = await response.json().catch(() => ({}));
        item.classList.add('error');
        body.textContent = problem.message || 'The agent could not answer (HTTP ' + response.status + ').';
        return;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (value) buffer += decoder.decode(value, { stream: true });
        for (;;) {
          const at = buffer.indexOf(MARK);
          if (at < 0) {
            body.textContent += buffer;
            buffer = '';
            break;
          }
          body.textContent += buffer.slice(0, at);
          const end = buffer.indexOf('\n', at);
          if (end < 0) {
            buffer = buffer.slice(at);
            break;
          }
          try {
            const mark = JSON.parse(buffer.slice(at + 1, end));
            addTool(item, mark.tool, mark.ok);
          } catch {}
          buffer = buffer.slice(end + 1);
        }
        item.scrollIntoView({ block: 'end' });
        if (done) break;
      }
      if (body.textContent.includes('[agent error]')) item.classList.add('error');
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
    ask(text);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  document.getElementById('new-session').addEventListener('click', () => {
    newSession();
    showSession();
    log.replaceChildren();
    status.textContent = 'A new conversation has started.';
    input.focus();
  });
  loadHistory();
})();
`;
