/**
 * @module http/docs-page
 * `/docs`: the service's OpenAPI document as one self-contained HTML page (no
 * external scripts or fonts, no script at all), readable by a person and by a
 * screen reader: for each operation who may call it, an example request, and
 * every response with its examples, errors included.
 */
import type { Context } from 'hono';
import { html, raw } from 'hono/html';

interface Example {
  summary?: string;
  value: unknown;
}
interface Media {
  example?: unknown;
  examples?: Record<string, Example>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  example?: unknown;
}
interface Operation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, Media> };
  parameters?: Parameter[];
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
}
interface Scheme {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
  description?: string;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths?: object;
  components?: { securitySchemes?: object };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const SCHEME_TITLES: Record<string, string> = {
  session: 'Signed-in session',
  personalAccessToken: 'Personal access token',
  serviceToken: 'Service token',
  relayerToken: 'Relayer credential',
  operatorToken: 'Operator token',
};

/**
 * The page's own styles, scoped to `.api-docs`. Inside the platform's shell they
 * take its colours (so the dark theme holds); alone they fall back to light ones.
 */
export const DOCS_STYLES = `
.api-docs .version { color: var(--muted, #5b6472); }
.api-docs section { border: 1px solid var(--border, #d8dde5); border-radius: 8px; margin: 1rem 0; padding: 0.75rem 1rem; }
.api-docs h2 { font-size: 1rem; margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
.api-docs h3 { font-size: 0.95rem; margin: 0.75rem 0 0.25rem; }
.api-docs .method { display: inline-block; min-width: 4.5rem; font-weight: 700; text-transform: uppercase; }
.api-docs .get { color: var(--ok, #116329); } .api-docs .post { color: var(--accent, #0550ae); }
.api-docs .delete { color: var(--danger, #a40e26); } .api-docs .put, .api-docs .patch { color: var(--fg, #8a4600); }
.api-docs pre { background: var(--code-bg, #f5f7fa); padding: 0.5rem; overflow-x: auto; font-size: 13px; margin: 0.25rem 0; }
.api-docs summary { cursor: pointer; }
.api-docs .status { font-family: ui-monospace, monospace; font-weight: 700; }
.api-docs .status-ok { color: var(--ok, #116329); } .api-docs .status-error { color: var(--danger, #a40e26); }
.api-docs dl.schemes dt { font-weight: 700; } .api-docs dl.schemes dd { margin: 0 0 0.5rem 1rem; }
.api-docs ul.access { margin: 0.25rem 0; padding-left: 1.25rem; }`;

/** The reference itself: the service, how to authenticate, and every operation (code blocks that scroll take the keyboard focus, so they scroll without a mouse). */
export function docsContent(doc: OpenApiDocument) {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation | undefined>>;
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, Scheme>;
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ path, method, op: item[method] }] : [])),
  );
  return html`<div class="api-docs">
      <h1>${doc.info.title}</h1>
      <p class="version">Version ${doc.info.version} · <a href="/openapi.json">openapi.json</a></p>
      ${doc.info.description ? html`<p>${doc.info.description}</p>` : ''}
      ${
        Object.keys(schemes).length
          ? html`<section aria-labelledby="authentication"><h2 id="authentication">Authentication</h2>
            <dl class="schemes">${Object.entries(schemes).map(
              ([name, scheme]) =>
                html`<dt>${SCHEME_TITLES[name] ?? name} <code>${schemeHow(scheme)}</code></dt><dd>${withCode(scheme.description ?? '')}</dd>`,
            )}</dl></section>`
          : ''
      }
      ${operations.length === 0 ? html`<p>This service publishes no JSON operations yet.</p>` : ''}
      ${operations.map(
        ({ path, method, op }) => html`<section aria-labelledby="${method}-${path}">
          <h2 id="${method}-${path}"><span class="method ${method}">${method}</span> ${path}</h2>
          ${op.summary ? html`<p>${withCode(op.summary)}</p>` : ''}
          ${op.description ? html`<p>${withCode(op.description)}</p>` : ''}
          <h3>Who may call</h3>
          <ul class="access">${accessOf(op).map((line) => html`<li>${line}</li>`)}</ul>
          ${
            op.parameters?.length
              ? html`<h3>Parameters</h3><ul>${op.parameters.map(
                  (p) =>
                    html`<li><code>${p.name}</code> (${p.in}${p.required ? ', required' : ''})${p.description ? html`: ${withCode(p.description)}` : ''}</li>`,
                )}</ul>`
              : ''
          }
          <h3>Example request</h3>
          <pre tabindex="0">${exampleRequest(method, path, op)}</pre>
          <h3>Responses</h3>
          ${Object.entries(op.responses ?? {}).map(
            ([status, response]) => html`<details>
              <summary><span class="status ${status.startsWith('2') || status.startsWith('3') ? 'status-ok' : 'status-error'}">${status}</span> ${withCode(response.description ?? '')}</summary>
              ${examplesOf(response.content?.['application/json']).map(
                ({ name, summary, value }) =>
                  html`${name ? html`<p><code>${name}</code>${summary ? html`: ${summary}` : ''}</p>` : ''}<pre tabindex="0">${json(value)}</pre>`,
              )}
            </details>`,
          )}
        </section>`,
      )}
    </div>`;
}

type DocsRenderer = (c: Context, doc: OpenApiDocument) => string;
const renderers = new WeakMap<object, DocsRenderer>();

/** How `app` renders `/docs` from now on (the page shell, once the service serves its page assets). */
export function renderDocsWith(app: object, renderer: DocsRenderer): void {
  renderers.set(app, renderer);
}

/** `/docs` for `app`: in the shell when one was set, else a page of its own. */
export function docsPageOf(app: object, c: Context, doc: OpenApiDocument, nonce: string): string {
  const renderer = renderers.get(app);
  return renderer ? renderer(c, doc) : String(renderDocsPage(doc, nonce));
}

/** The reference as a page of its own, for a service that serves no page shell (no browser assets). */
export function renderDocsPage(doc: OpenApiDocument, nonce: string) {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${doc.info.title} API</title>
    <style nonce="${nonce}">
      body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1.5rem; color: #1d2430; }
      ${raw(DOCS_STYLES)}
    </style>
  </head>
  <body>
    <main>${docsContent(doc)}</main>
  </body>
</html>`;
}

/** Text whose `backquoted` parts are code, as the descriptions write them. */
function withCode(text: string) {
  return text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));
}

function schemeHow(scheme: Scheme): string {
  if (scheme.type === 'apiKey') return `${scheme.name} (${scheme.in})`;
  if (scheme.type === 'http' && scheme.scheme === 'bearer') return 'Authorization: Bearer …';
  return scheme.type ?? '';
}

/** One line per accepted way in. */
function accessOf(op: Operation): string[] {
  if (op.security === undefined) return ['Not stated'];
  const ways = op.security.filter((way) => Object.keys(way).length > 0);
  if (ways.length === 0) return ['Anyone: no credential needed'];
  const anonymous = ways.length < op.security.length ? ['Anyone else, without a credential'] : [];
  const lines = ways.map((way) =>
    Object.entries(way)
      .map(([name, scopes]) => {
        const title = SCHEME_TITLES[name] ?? name;
        return scopes.length ? `${title} with scope ${scopes.join(', ')}` : title;
      })
      .join(' and '),
  );
  return [...lines, ...anonymous];
}

function exampleRequest(method: string, path: string, op: Operation): string {
  const parameters = op.parameters ?? [];
  const value = (p: Parameter) => encodeURIComponent(String(p.example ?? `{${p.name}}`));
  let target = path;
  for (const p of parameters.filter((p) => p.in === 'path')) target = target.replace(`{${p.name}}`, value(p));
  const query = parameters.filter((p) => p.in === 'query').map((p) => `${p.name}=${value(p)}`);
  const lines = [`${method.toUpperCase()} ${target}${query.length ? `?${query.join('&')}` : ''} HTTP/1.1`];
  const way = op.security?.find((w) => Object.keys(w).length > 0);
  if (way && 'session' in way) lines.push('Cookie: xv_session=…');
  else if (way) lines.push('Authorization: Bearer …');
  const body = op.requestBody?.content?.['application/json'];
  const bodyExample = body ? examplesOf(body)[0] : undefined;
  if (bodyExample)
    lines.push('Content-Type: application/json', '', JSON.stringify(bodyExample.value, null, 2));
  return lines.join('\n');
}

function examplesOf(media: Media | undefined): { name?: string; summary?: string; value: unknown }[] {
  if (!media) return [];
  if (media.examples)
    return Object.entries(media.examples).map(([name, e]) => ({ name, summary: e.summary, value: e.value }));
  return media.example === undefined ? [] : [{ value: media.example }];
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
