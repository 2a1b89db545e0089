/**
 * An answer's Markdown as safe DOM. The text comes from a model (and, through
 * it, from documents and whoever wrote them), so it is untrusted: raw HTML in it
 * is shown as text, images become plain links (no request leaves the page on
 * its own), and DOMPurify then removes whatever is left that could run or
 * navigate badly (event handlers, `javascript:` and other non-http links).
 * Links open in a new tab without access to this page.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

/** Link targets a person may follow from an answer. */
const SAFE_HREF = /^(?:https?:|mailto:|\/|#)/i;

const markdown = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    image({ href, text }) {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
    },
  },
});

const purifier = DOMPurify(window);
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  if (!SAFE_HREF.test(href.trim())) node.removeAttribute('href');
  node.setAttribute('rel', 'noopener noreferrer');
  node.setAttribute('target', '_blank');
});

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'a',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];

/** Renders `text` into `target`, replacing what it held (called again as the answer grows). */
export function renderMarkdown(target: HTMLElement, text: string): void {
  const html = markdown.parse(text, { async: false });
  const safe = purifier.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ['href', 'title', 'start', 'align', 'class'],
    RETURN_DOM_FRAGMENT: true,
  });
  target.replaceChildren(safe);
}
