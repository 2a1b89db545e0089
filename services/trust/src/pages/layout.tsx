/**
 * @module pages/layout
 * The frame of the trust service's public pages: no external assets, readable
 * without colour, landmarks and a live region for results.
 */
import type { Child } from 'hono/jsx';

export const STYLE = `
*{box-sizing:border-box}body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#17202a;background:#fafbfc}
header,main,footer{max-width:54rem;margin:0 auto;padding:1rem 1.25rem}
header{border-bottom:1px solid #d5dbe1}h1{font-size:1.6rem;margin:.5rem 0}
a{color:#0b57d0}a:focus,button:focus,input:focus,[tabindex]:focus{outline:3px solid #f6b100;outline-offset:2px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}
.verdict{border:2px solid;border-radius:.5rem;padding:.75rem 1rem;margin:1rem 0;font-weight:600}
.valid{border-color:#11823b;background:#e8f6ed}.invalid{border-color:#b3261e;background:#fcebea}.neutral{border-color:#6b7785;background:#f0f2f4}
#drop{border:2px dashed #6b7785;border-radius:.5rem;padding:2rem;text-align:center;margin:1rem 0}
#drop.over{background:#eef4ff;border-color:#0b57d0}
`;

export function page(title: string, body: Child): string {
  const html = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title} · XV Trust</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <header>
          <a href="/verify">XV Trust · verify a proof</a>
        </header>
        <main id="main">{body}</main>
        <footer>
          <p>
            Proofs are signed with P-256 and secp256k1; public keys at{' '}
            <a href="/api/keys/jwks">/api/keys/jwks</a>.
          </p>
        </footer>
      </body>
    </html>
  );
  return `<!doctype html>${html}`;
}
