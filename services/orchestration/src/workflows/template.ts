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

function lookup(scope: TemplateScope, path: string): unknown {
  let current: unknown = scope;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Renders every template in `value` (strings, arrays and objects, recursively). */
export function render(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    if (whole) return lookup(scope, whole[1]!) ?? null;
    return value.replace(PLACEHOLDER, (_, path: string) => asText(lookup(scope, path)));
  }
  if (Array.isArray(value)) return value.map((item) => render(item, scope));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, scope)]));
  }
  return value;
}

/** Renders a prompt: always text. */
export function renderText(template: string, scope: TemplateScope): string {
  return template.replace(PLACEHOLDER, (_, path: string) => asText(lookup(scope, path)));
}
