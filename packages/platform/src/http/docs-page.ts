/**
 * @module http/docs-page
 * `/docs`: the service's OpenAPI document as one self-contained HTML page (no
 * external scripts or fonts), readable by a person and by a screen reader.
 */
import { html, raw } from 'hono/html';

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  responses?: Record<string, { description?: string }>;
}

interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths?: object;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function renderDocsPage(doc: OpenApiDocument, nonce: string) {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation | undefined>>;
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ path, method, op: item[method] }] : [])),
  );
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${doc.info.title} API</title>
    <style nonce="${nonce}">
      body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1.5rem; color: #1d2430; }
      h1 { margin-bottom: 0; } .version { color: #5b6472; }
      section { border: 1px solid #d8dde5; border-radius: 8px; margin: 1rem 0; padding: 0.75rem 1rem; }
      h2 { font-size: 1rem; margin: 0; font-family: ui-monospace, monospace; }
      .method { display: inline-block; min-width: 4.5rem; font-weight: 700; text-transform: uppercase; }
      .get { color: #116329; } .post { color: #0550ae; } .delete { color: #a40e26; } .put, .patch { color: #8a4600; }
      pre { background: #f5f7fa; padding: 0.5rem; overflow-x: auto; font-size: 13px; }
      summary { cursor: pointer; }
    </style>
  </head>
  <body>
    <header>
      <h1>${doc.info.title}</h1>
      <p class="version">Version ${doc.info.version} · <a href="/openapi.json">openapi.json</a></p>
      ${doc.info.description ? html`<p>${doc.info.description}</p>` : ''}
    </header>
    <main>
      ${operations.length === 0 ? html`<p>This service publishes no JSON operations yet.</p>` : ''}
      ${operations.map(
        ({ path, method, op }) => html`<section aria-labelledby="${method}-${path}">
          <h2 id="${method}-${path}"><span class="method ${method}">${method}</span> ${path}</h2>
          ${op.summary ? html`<p>${op.summary}</p>` : ''}
          ${op.description ? html`<p>${op.description}</p>` : ''}
          ${
            op.parameters?.length
              ? html`<p>Parameters: ${op.parameters.map(
                  (p) => html`<code>${p.name}</code> (${p.in}${p.required ? ', required' : ''}) `,
                )}</p>`
              : ''
          }
          ${
            op.requestBody?.content
              ? html`<details><summary>Request body</summary><pre>${raw(escapeJson(op.requestBody.content))}</pre></details>`
              : ''
          }
          ${
            op.responses
              ? html`<details><summary>Responses</summary><pre>${raw(escapeJson(op.responses))}</pre></details>`
              : ''
          }
        </section>`,
      )}
    </main>
  </body>
</html>`;
}

function escapeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[&<>]/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[ch]!,
  );
}
