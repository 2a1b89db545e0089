/**
 * @module http/pages/template
 * A translated sentence with elements inside it (a date, a link, code): the
 * catalogue keeps the whole sentence, so each language orders its words itself,
 * and `{name}` placeholders left unfilled by the translator become elements.
 * The text around them stays text: JSX escapes it.
 */
import type { Child } from 'hono/jsx';

const PLACEHOLDER = /\{(\w+)\}/;

export function Template(props: { text: string; parts: Record<string, Child> }) {
  const pieces = props.text.split(PLACEHOLDER);
  return (
    <>
      {pieces.map((piece, index) =>
        index % 2 === 0 ? piece : Object.hasOwn(props.parts, piece) ? props.parts[piece] : `{${piece}}`,
      )}
    </>
  );
}
