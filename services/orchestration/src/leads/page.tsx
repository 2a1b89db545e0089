/**
 * @module leads/page
 * The lead form at `/lead`: plain HTML that works without JavaScript, with no
 * external assets (Turnstile's widget script is the one exception, when it is the
 * configured challenge). With ALTCHA on, a small inline script fetches a challenge,
 * solves the proof of work with WebCrypto and fills the hidden `altcha` field.
 */
import { raw } from 'hono/html';
import type { ChallengeKind } from './challenge.js';

export interface LeadPageProps {
  challenge: ChallengeKind;
  turnstileSiteKey?: string | undefined;
  outcome?: { ok: boolean; message: string } | undefined;
  values?: { name?: string; email?: string; company?: string } | undefined;
  /** The response's CSP nonce, which every script tag carries. */
  nonce: string;
}

const STYLE = `
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:30rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.5rem;margin-top:0}
label{display:block;font-weight:600;margin-top:1rem}
input{width:100%;padding:.6rem;margin-top:.25rem;border:1px solid #8a939e;border-radius:4px;font:inherit}
input:focus,button:focus{outline:3px solid #2457c5;outline-offset:2px}
button{margin-top:1.5rem;padding:.7rem 1.4rem;border:0;border-radius:4px;background:#2457c5;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button[disabled]{background:#6b7785;cursor:progress}
.hint{color:#4a535e;font-size:.9rem}
.status{margin-top:1rem;padding:.75rem;border-radius:4px}
.status.ok{background:#e3f4e8;color:#13522a}
.status.error{background:#fbe4e4;color:#7a1414}
.status:empty{display:none}
`;

/** Solves ALTCHA v2 (SHA-256, deterministic counter) like altcha-lib's `solveChallenge`. */
const ALTCHA_SCRIPT = `
(function () {
  var form = document.getElementById('lead-form');
  var field = document.getElementById('altcha');
  var status = document.getElementById('status');
  var button = form.querySelector('button');
  function hex(bytes) { return Array.from(bytes, function (b) { return b.toString(16).padStart(2, '0'); }).join(''); }
  function bytes(h) { var out = new Uint8Array(h.length / 2); for (var i = 0; i < out.length; i++) out[i] = parseInt(h.substr(i * 2, 2), 16); return out; }
  async function solve(challenge) {
    var p = challenge.parameters, salt = bytes(p.salt), nonce = bytes(p.nonce), len = p.keyLength || 32;
    var data = new Uint8Array(salt.length + nonce.length + 4);
    data.set(salt, 0); data.set(nonce, salt.length);
    var view = new DataView(data.buffer);
    for (var counter = 0; counter <= 0xffffffff; counter++) {
      view.setUint32(salt.length + nonce.length, counter, false);
      var key = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
      for (var i = 1; i < (p.cost || 1); i++) key = new Uint8Array(await crypto.subtle.digest('SHA-256', key));
      var derived = hex(key.slice(0, len));
      if (derived.startsWith(p.keyPrefix)) return { counter: counter, derivedKey: derived };
    }
    throw new Error('unsolvable');
  }
  form.addEventListener('submit', async function (event) {
    if (field.value) return;
    event.preventDefault();
    button.disabled = true;
    status.className = 'status';
    status.textContent = 'Checking that you are not a robot…';
    try {
      var response = await fetch('/api/lead/challenge', { headers: { accept: 'application/json' } });
      var challenge = await response.json();
      var solution = await solve(challenge);
      field.value = btoa(JSON.stringify({ challenge: challenge, solution: solution }));
      status.textContent = 'Sending…';
      form.submit();
    } catch (error) {
      button.disabled = false;
      status.className = 'status error';
      status.textContent = 'The robot check failed. Please try again.';
    }
  });
})();
`;

export function LeadPage({ challenge, turnstileSiteKey, outcome, values = {}, nonce }: LeadPageProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Talk to us · XV</title>
        <style>{raw(STYLE)}</style>
        {challenge === 'turnstile' && (
          <script
            nonce={nonce}
            src="https://challenges.cloudflare.com/turnstile/v0/api.js"
            async
            defer
          ></script>
        )}
      </head>
      <body>
        <main>
          <h1>Talk to us</h1>
          <p class="hint">Leave your work e-mail and we will get back to you within one business day.</p>
          <form id="lead-form" method="post" action="/lead">
            <label for="name">Name</label>
            <input
              id="name"
              name="name"
              autocomplete="name"
              required
              maxlength={200}
              value={values.name ?? ''}
            />
            <label for="email">Work e-mail</label>
            <input
              id="email"
              name="email"
              type="email"
              autocomplete="email"
              required
              maxlength={254}
              aria-describedby="email-hint"
              value={values.email ?? ''}
            />
            <p id="email-hint" class="hint">
              Personal and disposable addresses are not accepted.
            </p>
            <label for="company">Company (optional)</label>
            <input
              id="company"
              name="company"
              autocomplete="organization"
              maxlength={200}
              value={values.company ?? ''}
            />
            {challenge === 'altcha' && <input type="hidden" id="altcha" name="altcha" value="" />}
            {challenge === 'turnstile' && <div class="cf-turnstile" data-sitekey={turnstileSiteKey}></div>}
            <button type="submit">Send</button>
            <p
              id="status"
              class={outcome ? `status ${outcome.ok ? 'ok' : 'error'}` : 'status'}
              role="status"
              aria-live="polite"
            >
              {outcome?.message ?? ''}
            </p>
          </form>
        </main>
        {challenge === 'altcha' && <script nonce={nonce}>{raw(ALTCHA_SCRIPT)}</script>}
      </body>
    </html>
  );
}
