/**
 * @module search/chunker
 * Splits a Markdown document into passages for search. Each heading opens a
 * section whose `headingPath` is the chain of headings above it joined with
 * ` > `; a section longer than the limit is cut at paragraph (then sentence,
 * then word) boundaries into windows that overlap, so a fact on a boundary is
 * in both. Front matter is not text (its `title` is kept), and a `#` inside a
 * fenced code block is code, not a heading.
 */

export interface Chunk {
  ordinal: number;
  headingPath: string;
  text: string;
}

export interface ChunkOptions {
  /** Longest passage, in characters. */
  maxChars?: number;
  /** Characters of the previous window repeated at the start of the next. */
  overlapChars?: number;
}

export interface ParsedDocument {
  title: string | undefined;
  /** The Markdown without its front matter. */
  body: string;
}

export const HEADING_SEPARATOR = ' > ';
const DEFAULT_MAX = 1200;
const DEFAULT_OVERLAP = 200;
const FRONT_MATTER = /^(?:\uFEFF)?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Separates front matter from the body and finds a title (front matter `title:`, else the first H1). */
export function parseDocument(markdown: string): ParsedDocument {
  let body = markdown;
  let title: string | undefined;
  const front = FRONT_MATTER.exec(markdown);
  if (front) {
    body = markdown.slice(front[0].length);
    const line = front[1]!.split(/\r?\n/).find((l) => /^title\s*:/i.test(l));
    if (line) title = unquote(line.slice(line.indexOf(':') + 1).trim()) || undefined;
  }
  if (!title) {
    for (const { level, text } of headings(body)) {
      if (level === 1) {
        title = text;
        break;
      }
    }
  }
  return { title, body };
}

function unquote(value: string): string {
  const m = /^(['"])(.*)\1$/.exec(value);
  return m ? m[2]! : value;
}

function* headings(body: string): Generator<{ level: number; text: string; line: number }> {
  let fence: string | undefined;
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = FENCE.exec(line);
    if (f) {
      const marker = f[1]!;
      if (!fence) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence) continue;
    const h = HEADING.exec(line);
    if (h) yield { level: h[1]!.length, text: stripInline(h[2]!), line: i };
  }
}

/** Heading text without emphasis, code and link markup. */
function stripInline(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]/g, '')
    .trim();
}

export function chunkMarkdown(markdown: string, options: ChunkOptions = {}): Chunk[] {
  const maxChars = options.maxChars ?? DEFAULT_MAX;
  const overlap = Math.min(options.overlapChars ?? DEFAULT_OVERLAP, Math.floor(maxChars / 2));
  const { body } = parseDocument(markdown);
  const lines = body.split(/\r?\n/);
  const sections: { path: string[]; lines: string[] }[] = [];
  const stack: string[] = [];
  let current = { path: [] as string[], lines: [] as string[] };
  let next = 0;
  for (const h of headings(body)) {
    current.lines = lines.slice(next, h.line);
    sections.push(current);
    stack.length = h.level - 1;
    stack[h.level - 1] = h.text;
    current = { path: stack.filter((s) => s !== undefined), lines: [] };
    next = h.line + 1;
  }
  current.lines = lines.slice(next);
  sections.push(current);

  const chunks: Chunk[] = [];
  for (const section of sections) {
    const text = section.lines.join('\n').trim();
    if (!text) continue;
    for (const window of splitSection(text, maxChars, overlap)) {
      chunks.push({
        ordinal: chunks.length,
        headingPath: section.path.join(HEADING_SEPARATOR),
        text: window,
      });
    }
  }
  return chunks;
}

/** Cuts a section into overlapping windows of at most `max` characters. */
function splitSection(text: string, max: number, overlap: number): string[] {
  if (text.length <= max) return [text];
  const units = paragraphs(text).flatMap((p) => (p.length <= max ? [p] : splitLong(p, max)));
  const windows: string[] = [];
  let window: string[] = [];
  let size = 0;
  for (const unit of units) {
    if (size > 0 && size + unit.length + 2 > max) {
      windows.push(window.join('\n\n'));
      // Carry the tail of the window into the next one.
      const carried: string[] = [];
      let carriedSize = 0;
      for (let i = window.length - 1; i >= 0; i--) {
        const u = window[i]!;
        if (carriedSize + u.length > overlap) {
          if (carried.length === 0 && overlap > 0) {
            const piece = tail(u, overlap);
            carried.unshift(piece);
            carriedSize += piece.length + 2;
          }
          break;
        }
        carried.unshift(u);
        carriedSize += u.length + 2;
      }
      if (carriedSize + unit.length + 2 > max) carried.length = 0;
      window = carried;
      size = window.reduce((n, u) => n + u.length + 2, 0);
    }
    window.push(unit);
    size += unit.length + 2;
  }
  if (window.length > 0) windows.push(window.join('\n\n'));
  return windows;
}

/** Blank-line-separated blocks; a fenced code block stays one block. */
function paragraphs(text: string): string[] {
  const blocks: string[] = [];
  let block: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const f = FENCE.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = undefined;
    }
    if (!fence && line.trim() === '' && !f) {
      if (block.length) blocks.push(block.join('\n'));
      block = [];
    } else {
      block.push(line);
    }
  }
  if (block.length) blocks.push(block.join('\n'));
  return blocks;
}

/** Splits an oversized paragraph at sentence ends, then at spaces, then anywhere. */
function splitLong(paragraph: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = paragraph;
  while (rest.length > max) {
    const head = rest.slice(0, max);
    let cut = Math.max(
      head.lastIndexOf('. '),
      head.lastIndexOf('? '),
      head.lastIndexOf('! '),
      head.lastIndexOf('\n'),
    );
    if (cut < max / 2) cut = head.lastIndexOf(' ');
    if (cut < max / 2) cut = max - 1;
    pieces.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** The last `n` characters of `text`, starting at a word boundary. */
function tail(text: string, n: number): string {
  const start = text.length - n;
  const space = text.indexOf(' ', start);
  return text.slice(space === -1 ? start : space + 1);
}
