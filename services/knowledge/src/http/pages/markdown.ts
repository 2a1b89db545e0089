/**
 * @module http/pages/markdown
 * Markdown rendered for a reviewer's browser, where the document is untrusted:
 * raw HTML in it is shown as text, never interpreted; links keep only http(s),
 * mailto and relative targets (no `javascript:`, `data:` or `vbscript:`, however
 * disguised by entities, case or whitespace); images become links (no tracking
 * pixels, no `onerror`). marked escapes text and code itself.
 */
import { Marked } from 'marked';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
// biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these inside a URL scheme.
const IGNORED_IN_SCHEME = /[\u0000-\u0020\u007f-\u009f]/g;

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000),
    )
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;|&newline;/gi, '')
    .replace(/&amp;/gi, '&');
}

/** The URL when it is safe to put in an href, else undefined. */
export function safeHref(href: string): string | undefined {
  const probe = decodeEntities(href).replace(IGNORED_IN_SCHEME, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(probe)?.[1];
  if (scheme && !ALLOWED_SCHEMES.has(`${scheme.toLowerCase()}:`)) return undefined;
  return href;
}

const renderer = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }) {
      const inner = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      if (!safe) return inner;
      const titled = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(safe)}"${titled} rel="noopener noreferrer nofollow" target="_blank">${inner}</a>`;
    },
    image({ href, text }) {
      const safe = safeHref(href);
      const label = `[image: ${escapeHtml(text || 'untitled')}]`;
      return safe
        ? `<a href="${escapeHtml(safe)}" rel="noopener noreferrer nofollow" target="_blank">${label}</a>`
        : label;
    },
  },
});

/** Safe HTML for a Markdown document. */
export function renderMarkdown(markdown: string): string {
  return renderer.parse(markdown, { async: false }) as string;
}
