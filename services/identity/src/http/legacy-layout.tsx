/**
 * @module http/legacy-layout
 * The frame the credentials page still uses: one inline stylesheet, a skip link
 * and a main landmark. The identity pages use the platform's `Page`
 * (`http/pages/frame.tsx`); this goes once the credentials page does too.
 */
import type { Child } from 'hono/jsx';

const STYLE = `
:root{color-scheme:light dark;--fg:#111827;--bg:#f9fafb;--card:#fff;--muted:#4b5563;--accent:#1d4ed8;--danger:#b91c1c;--ok:#047857;--border:#d1d5db}
@media (prefers-color-scheme:dark){:root{--fg:#f3f4f6;--bg:#111827;--card:#1f2937;--muted:#d1d5db;--accent:#93c5fd;--danger:#fca5a5;--ok:#6ee7b7;--border:#4b5563}}
*{box-sizing:border-box}[hidden]{display:none!important}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--card);padding:.5rem}
header{padding:1rem 1.5rem;border-bottom:1px solid var(--border);display:flex;gap:1rem;align-items:center;justify-content:space-between}
header a{color:var(--fg);font-weight:700;text-decoration:none}
main{max-width:44rem;margin:2rem auto;padding:0 1rem}
section,.card{background:var(--card);border:1px solid var(--border);border-radius:.5rem;padding:1.25rem;margin-bottom:1.25rem}
h1{font-size:1.6rem;margin:0 0 1rem}h2{font-size:1.2rem;margin:0 0 .75rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select{width:100%;padding:.55rem;font:inherit;border:1px solid var(--border);border-radius:.35rem;background:var(--bg);color:var(--fg)}
button,.button{display:inline-block;margin-top:1rem;padding:.55rem 1rem;font:inherit;font-weight:600;border:0;border-radius:.35rem;background:var(--accent);color:#fff;cursor:pointer;text-decoration:none}
@media (prefers-color-scheme:dark){button,.button{color:#111827}}
button.secondary{background:transparent;color:var(--accent);border:1px solid var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.error{color:var(--danger);font-weight:600}.notice{color:var(--ok);font-weight:600}.muted{color:var(--muted)}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:.35rem;border-bottom:1px solid var(--border)}
code,.codes{font-family:ui-monospace,monospace}.codes{columns:2;list-style:none;padding:0}
.avatar{display:inline-block;width:2rem;height:2rem;border-radius:50%;color:#fff;text-align:center;line-height:2rem;font-weight:700}
.qr svg{width:12rem;height:12rem;background:#fff}
`;

export function Layout(props: { title: string; children: Child; signedIn?: boolean }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The platform sends Referrer-Policy: no-referrer, with which browsers send `Origin: null` on
            form posts and the CSRF check refuses them. Our forms post to this same origin. */}
        <meta name="referrer" content="same-origin" />
        <title>{`${props.title} · XV`}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header>
          <a href={props.signedIn ? '/account' : '/login'}>XV Identity</a>
          {props.signedIn ? (
            <form method="post" action="/api/auth/logout">
              <button type="submit" class="secondary" style="margin:0">
                Sign out
              </button>
            </form>
          ) : null}
        </header>
        <main id="main">{props.children}</main>
      </body>
    </html>
  );
}
