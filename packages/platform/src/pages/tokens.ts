/**
 * @module pages/tokens
 * The design tokens and base styles every XV page shares, served as the `xv`
 * stylesheet. Colours follow the reader's light or dark preference and keep a
 * contrast of at least 4.5:1; focus is always visible.
 */
export const PLATFORM_STYLESHEET = `
:root{color-scheme:light dark;--fg:#111827;--bg:#f9fafb;--card:#fff;--muted:#4b5563;--accent:#1d4ed8;--on-accent:#fff;--danger:#b91c1c;--danger-bg:#fdecec;--ok:#047857;--ok-bg:#e3f4e8;--warn-bg:#fff8e1;--border:#d1d5db;--code-bg:#f0f2f5;--radius:.5rem;--font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;--mono:ui-monospace,SFMono-Regular,Menlo,monospace}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){--fg:#f3f4f6;--bg:#111827;--card:#1f2937;--muted:#d1d5db;--accent:#93c5fd;--on-accent:#111827;--danger:#fca5a5;--danger-bg:#3b1d1d;--ok:#6ee7b7;--ok-bg:#123326;--warn-bg:#3a3216;--border:#4b5563;--code-bg:#273244}}
:root[data-theme=dark]{color-scheme:dark;--fg:#f3f4f6;--bg:#111827;--card:#1f2937;--muted:#d1d5db;--accent:#93c5fd;--on-accent:#111827;--danger:#fca5a5;--danger-bg:#3b1d1d;--ok:#6ee7b7;--ok-bg:#123326;--warn-bg:#3a3216;--border:#4b5563;--code-bg:#273244}
:root[data-theme=light]{color-scheme:light;--fg:#111827;--bg:#f9fafb;--card:#fff;--muted:#4b5563;--accent:#1d4ed8;--on-accent:#fff;--danger:#b91c1c;--danger-bg:#fdecec;--ok:#047857;--ok-bg:#e3f4e8;--warn-bg:#fff8e1;--border:#d1d5db;--code-bg:#f0f2f5}
*{box-sizing:border-box}[hidden]{display:none!important}
body{margin:0;font:var(--font);color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--card);padding:.5rem;z-index:1}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.site{padding:.6rem 1.5rem;border-bottom:1px solid var(--border);background:var(--card);display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center}
.site .product{color:var(--fg);font-weight:700;text-decoration:none;display:inline-flex;gap:.5rem;align-items:center}
.site nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center}
.site nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
.site nav a{text-decoration:none;padding:.2rem 0;white-space:nowrap}.site nav a:hover{text-decoration:underline}
.site nav a[aria-current=page]{font-weight:700;color:var(--fg);border-bottom:2px solid var(--accent)}
.site nav.sections{flex:1 1 auto}
.site nav.local{flex-basis:100%;font-size:.95rem}
.site .viewer{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;min-width:0}
.site .viewer .person{font-weight:600;overflow-wrap:anywhere}.site .viewer .org{color:var(--muted)}
.site .viewer select{width:auto;max-width:12rem;padding:.25rem}
.site nav.languages ul{gap:.25rem .6rem;font-size:.9rem}.site nav.languages a[aria-current=true]{color:var(--fg);font-weight:700}
button.small,.button.small{margin-top:0;padding:.25rem .6rem;font-size:.9rem}
@media (max-width:40rem){.site{padding:.5rem 1rem}.site nav.sections{flex-basis:100%}main{margin:1rem auto}section,.card{padding:1rem}}
main{max-width:44rem;margin:2rem auto;padding:0 1rem}main.wide{max-width:62rem}
footer.site-footer{max-width:62rem;margin:2rem auto;padding:1rem;color:var(--muted);font-size:.9rem}
section,.card{background:var(--card);border:1px solid var(--border);border-radius:var(--radius);padding:1.25rem;margin-bottom:1.25rem}
h1{font-size:1.6rem;margin:0 0 1rem}h2{font-size:1.2rem;margin:0 0 .75rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select,textarea{width:100%;padding:.55rem;font:inherit;border:1px solid var(--border);border-radius:.35rem;background:var(--bg);color:var(--fg)}
button,.button{display:inline-block;margin-top:1rem;padding:.55rem 1rem;font:inherit;font-weight:600;border:0;border-radius:.35rem;background:var(--accent);color:var(--on-accent);cursor:pointer;text-decoration:none}
button[disabled]{opacity:.6;cursor:progress}
button.secondary,.button.secondary{background:transparent;color:var(--accent);border:1px solid var(--accent)}
.inline{margin:0}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.error{color:var(--danger);font-weight:600}.notice{color:var(--ok);font-weight:600}.muted{color:var(--muted)}
.status{margin-top:1rem;padding:.75rem;border-radius:.35rem}.status:empty{display:none}
.status.ok{background:var(--ok-bg)}.status.error{background:var(--danger-bg)}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--border)}
code,pre,.mono{font-family:var(--mono);font-size:.92em}pre{background:var(--code-bg);padding:.75rem;overflow:auto;border-radius:.35rem}
`;
