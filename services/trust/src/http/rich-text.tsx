/**
 * @module http/rich-text
 * A catalogue message whose `{name}` placeholders are elements (a link, a code
 * sample), so a sentence keeps its links wherever its language puts them.
 */
import type { Child } from 'hono/jsx';

const PLACEHOLDER = /(\{\w+\})/;

/** `message` as children: its text escaped as usual, each `{name}` with an element of `parts` in its place. */
export function richText(message: string, parts: Record<string, Child>): Child[] {
  return message.split(PLACEHOLDER).map((piece) => {
    const name = piece.startsWith('{') && piece.endsWith('}') ? piece.slice(1, -1) : undefined;
    return name !== undefined && name in parts ? parts[name] : piece;
  });
}
