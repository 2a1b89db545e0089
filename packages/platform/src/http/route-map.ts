/**
 * @module http/route-map
 * Where each route of a service is registered: the file that called `app.get`,
 * `app.post`, `app.on` or `app.openapi` for it. `docs/ARCHITECTURE.md` carries the
 * table this produces for every service (`npm run docs`), so a reader finds the
 * code of any endpoint in one step, and CI fails when the table is stale.
 */
import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from './app.js';

export interface RouteRecord {
  method: string;
  /** OpenAPI style: `/api/documents/{id}`. */
  path: string;
  /** The registering file, relative to `root`. */
  file: string;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'options', 'all'] as const;
// The registration machinery itself (the app, the asset routes, the service runner) is never the answer.
const MACHINERY = /[\\/]packages[\\/]platform[\\/](src|dist)[\\/](http[\\/]|pages[\\/]|service\.)/;

function callerFile(root: string): string | undefined {
  const stack = new Error().stack?.split('\n') ?? [];
  for (const line of stack) {
    const location = /\((.*):\d+:\d+\)$/.exec(line)?.[1] ?? /at (\S+):\d+:\d+$/.exec(line)?.[1];
    if (!location) continue;
    const file = location.startsWith('file://') ? fileURLToPath(location) : location;
    if (!file.startsWith(root) || file.includes('node_modules') || MACHINERY.test(file)) continue;
    // A loader that compiles TSX may report the module as `.ts`.
    const source = !existsSync(file) && existsSync(`${file}x`) ? `${file}x` : file;
    return relative(root, source).split(sep).join('/');
  }
  return undefined;
}

const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

/**
 * Starts recording where `app`'s routes are registered; call it before the
 * service adds its routes. Files are given relative to `root` (the repository).
 */
export function recordRouteSources(app: App, root: string): RouteRecord[] {
  const records: RouteRecord[] = [];
  const seen = new Set<string>();
  let depth = 0;
  const record = (method: string, path: unknown) => {
    if (depth > 1 || typeof path !== 'string') return;
    const entry = { method: method.toUpperCase(), path: openApiPath(path), file: callerFile(root) ?? '?' };
    const key = `${entry.method} ${entry.path}`;
    if (seen.has(key)) return;
    seen.add(key);
    records.push(entry);
  };
  const wrap = <F extends (...args: never[]) => unknown>(
    original: F,
    onCall: (...args: Parameters<F>) => void,
  ) =>
    ((...args: Parameters<F>) => {
      depth++;
      try {
        onCall(...args);
        return original(...args);
      } finally {
        depth--;
      }
    }) as F;
  for (const method of METHODS) {
    const original = app[method].bind(app);
    app[method] = wrap(original, (path: unknown) => record(method, path));
  }
  const on = app.on.bind(app);
  app.on = wrap(on, (methods: unknown, paths: unknown) => {
    for (const method of [methods].flat())
      for (const path of [paths].flat()) if (typeof method === 'string') record(method, path);
  });
  const openapi = app.openapi.bind(app);
  app.openapi = wrap(openapi, (route: { method: string; path: string }) => record(route.method, route.path));
  return records;
}
