/**
 * @module workflows/template
 * Templates in workflow definitions: `{{input.company}}`, `{{steps.summarise.output}}`,
 * `{{steps.search.output.hits.0.text}}`. A string that is exactly one placeholder
 * keeps the value's type (an object stays an object); placeholders inside text are
 * replaced by the value's text (objects as JSON). A missing value is empty.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}$/;

export interface TemplateScope {
  input: Record<string, unknown>;
  steps: Record<string, { output: unknown }>;
}

/** Every `a.b.c` path the value's templates refer to. */
export function referencesIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(referencesIn);
  return [];
}

/** The value at `path` (its keys, in order) in the scope; undefined when any key is missing. */
function lookup(scope: TemplateScope, path: readonly string[]): unknown {
  let current: unknown = scope;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

type Renderer = (scope: TemplateScope) => unknown;

/**
 * A template read once into a function of the scope: its placeholders found and
 * their paths split when it is first rendered, not again at every step of every
 * run (regular expressions, splits and entry lists cost about 50 µs a run of the
 * 3-step benchmark workflow).
 */
function compile(value: unknown): Renderer {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    if (whole) {
      const path = whole[1]!.split('.');
      return (scope) => lookup(scope, path) ?? null;
    }
    const pieces: (string | string[])[] = [];
    let last = 0;
    for (const match of value.matchAll(PLACEHOLDER)) {
      pieces.push(value.slice(last, match.index), match[1]!.split('.'));
      last = match.index + match[0].length;
    }
    if (pieces.length === 0) return () => value;
    pieces.push(value.slice(last));
    return (scope) => {
      let text = '';
      for (const piece of pieces) text += typeof piece === 'string' ? piece : asText(lookup(scope, piece));
      return text;
    };
  }
  if (Array.isArray(value)) {
    const items = value.map(compile);
    return (scope) => items.map((item) => item(scope));
  }
  if (value && typeof value === 'object') {
    const members = Object.entries(value).map(([key, member]) => [key, compile(member)] as const);
    return (scope) => Object.fromEntries(members.map(([key, member]) => [key, member(scope)]));
  }
  return () => value;
}

/** Templates of a workflow definition (never changed once loaded), each read once. */
const compiled = new WeakMap<object, Renderer>();

/** Renders every template in `value` (strings, arrays and objects, recursively). */
export function render(value: unknown, scope: TemplateScope): unknown {
  if (value === null || typeof value !== 'object') return compile(value)(scope);
  let renderer = compiled.get(value);
  if (!renderer) {
    renderer = compile(value);
    compiled.set(value, renderer);
  }
  return renderer(scope);
}

/** Renders a prompt: always text. */
export function renderText(template: string, scope: TemplateScope): string {
  return template.replace(PLACEHOLDER, (_, path: string) => asText(lookup(scope, path.split('.'))));
}
