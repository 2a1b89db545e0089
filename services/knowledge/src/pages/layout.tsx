/**
 * @module pages/layout
 * The frame of every reviewer page. Pages need no script at all, so each also
 * carries a `<meta>` policy forbidding scripts: on top of the sanitised Markdown,
 * a document that slipped something through still could not run it.
 */
import type { Child } from 'hono/jsx';

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:.7rem 1.5rem;display:flex;gap:1.5rem;align-items:center}
header a{color:#cfd6e4;text-decoration:none}header strong{color:#fff}
main{max-width:60rem;margin:1.5rem auto;padding:0 1.5rem}
table{border-collapse:collapse;width:100%;background:#fff}td,th{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e3e6ec}
.card{background:#fff;border:1px solid #e3e6ec;border-radius:6px;padding:1rem 1.25rem;margin:1rem 0}
.state{display:inline-block;padding:0 .5rem;border-radius:1rem;background:#e8ecf4;font-size:.85em}
.doc pre{background:#f0f2f5;padding:.75rem;overflow:auto}.doc img{max-width:100%}
.diff{font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap;background:#fff;border:1px solid #e3e6ec;padding:.5rem}
.diff ins{background:#e2f7e2;text-decoration:none;display:block}.diff del{background:#fbe3e3;text-decoration:none;display:block}
.notice{background:#fff8e1;border:1px solid #f0d98a;padding:.75rem 1rem;border-radius:6px}
.error{background:#fdecec;border:1px solid #f2b8b8;padding:.75rem 1rem;border-radius:6px}
code.secret{font-size:1.05em;background:#f0f2f5;padding:.3rem .5rem;word-break:break-all}
textarea{width:100%;min-height:4rem}button{padding:.35rem .9rem;margin-right:.5rem}
`;

export function Layout(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta
          http-equiv="Content-Security-Policy"
          content="script-src 'none'; object-src 'none'; base-uri 'none'"
        />
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* same-origin: with no-referrer, browsers send `Origin: null` on form posts and the CSRF check refuses them. */}
        <meta name="referrer" content="same-origin" />
        <title>{props.title} · XV knowledge base</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <header>
          <strong>XV knowledge base</strong>
          <a href="/review">Review queue</a>
          <a href="/tokens">Access tokens</a>
        </header>
        <main>{props.children}</main>
      </body>
    </html>
  );
}
