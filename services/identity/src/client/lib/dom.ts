/**
 * @module client/lib/dom
 * Typed look-ups of the elements a page's script drives.
 */

/** The element with that id when it is of that kind, else null (a section the page left out). */
export function find<T extends HTMLElement>(id: string, kind: abstract new () => T): T | null {
  const element = document.getElementById(id);
  return element instanceof kind ? element : null;
}

/** The value of the input with that id, trimmed ('' when absent). */
export function inputText(id: string): string {
  return find(id, HTMLInputElement)?.value.trim() ?? '';
}

/** Runs `action` on every element carrying `data-<name>`, with that attribute's value. */
export function forEachMarked<T extends HTMLElement>(
  attribute: string,
  kind: abstract new () => T,
  action: (element: T, value: string) => void,
) {
  for (const element of document.querySelectorAll(`[${attribute}]`))
    if (element instanceof kind) action(element, element.getAttribute(attribute) ?? '');
}
