/**
 * @module http/pages/front-matter
 * The YAML front matter at the top of a vault document (`---` … `---`), split off
 * so the reader shows it as a small key/value table instead of letting Markdown
 * turn it into a rule and a heading. Only the simple shapes vaults use are read:
 * `key: value` and `key:` followed by `- item` lines (shown joined by commas).
 * Anything else stays a line of its own, shown as written.
 */

export interface FrontMatter {
  entries: { key: string; value: string }[];
  body: string;
}

const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const ENTRY = /^([A-Za-z0-9_][\w .-]*?)\s*:\s*(.*)$/;
const ITEM = /^\s+-\s+(.*)$|^-\s+(.*)$/;

const unquote = (value: string) => value.replace(/^(["'])(.*)\1$/, '$2');

export function splitFrontMatter(markdown: string): FrontMatter {
  const block = BLOCK.exec(markdown);
  if (!block) return { entries: [], body: markdown };
  const entries: { key: string; value: string; items: string[] }[] = [];
  for (const line of block[1]!.split(/\r?\n/)) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const item = ITEM.exec(line);
    const previous = entries.at(-1);
    if (item && previous) {
      previous.items.push(unquote((item[1] ?? item[2] ?? '').trim()));
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry) entries.push({ key: entry[1]!, value: unquote(entry[2]!.trim()), items: [] });
    else entries.push({ key: '', value: line.trim(), items: [] });
  }
  return {
    entries: entries.map((e) => ({ key: e.key, value: [e.value, ...e.items].filter(Boolean).join(', ') })),
    body: markdown.slice(block[0].length),
  };
}
