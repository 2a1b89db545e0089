/**
 * @module pages/client
 * The little JavaScript the identity pages run (inline: no external assets):
 * JSON calls to the service, and the WebAuthn ceremonies, which need binary
 * fields turned to and from base64url.
 */

export const CLIENT_SCRIPT = `
const b64u = {
  enc(buffer) { let s = ''; for (const b of new Uint8Array(buffer)) s += String.fromCharCode(b); return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); },
  dec(text) { const s = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4)); return Uint8Array.from(s, (c) => c.charCodeAt(0)); },
};
async function xv(path, body, method) {
  const response = await fetch(path, {
    method: method || 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = await response.json().catch(() => ({}));
  // An authenticator change needs a recent AAL2 proof: lead the person through the step-up, back to this page.
  if (json.error === 'step_up_required' && json.stepUpUrl) {
    location.href = json.stepUpUrl;
    throw new Error('Please verify again first: taking you there…');
  }
  if (!response.ok) throw new Error(json.message || 'The request failed (' + response.status + ').');
  return json;
}
function credentialJson(credential) {
  const r = credential.response;
  const out = { id: credential.id, rawId: b64u.enc(credential.rawId), type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults(), response: { clientDataJSON: b64u.enc(r.clientDataJSON) } };
  if (credential.authenticatorAttachment) out.authenticatorAttachment = credential.authenticatorAttachment;
  if (r.attestationObject) {
    out.response.attestationObject = b64u.enc(r.attestationObject);
    out.response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    out.response.authenticatorData = b64u.enc(r.authenticatorData);
    out.response.signature = b64u.enc(r.signature);
    if (r.userHandle) out.response.userHandle = b64u.enc(r.userHandle);
  }
  return out;
}
async function createPasskey(name, password) {
  const o = await xv('/api/auth/passkey/register/options', password ? { password } : {});
  const publicKey = { ...o, challenge: b64u.dec(o.challenge), user: { ...o.user, id: b64u.dec(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: b64u.dec(c.id) })) };
  const credential = await navigator.credentials.create({ publicKey });
  return xv('/api/auth/passkey/register/verify', { response: credentialJson(credential), name });
}
async function usePasskey(redirect) {
  const o = await xv('/api/auth/passkey/login/options', {});
  const publicKey = { ...o, challenge: b64u.dec(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: b64u.dec(c.id) })) };
  const credential = await navigator.credentials.get({ publicKey });
  return xv('/api/auth/passkey/login/verify', { response: credentialJson(credential), redirect });
}
function show(id, text, isError) {
  const el = document.getElementById(id);
  if (!el) return;
  el.textContent = text;
  el.className = isError ? 'error' : 'notice';
}
const LEVELS = ['AAL1', 'AAL2', 'AAL3'];
for (const button of document.querySelectorAll('[data-passkey-login]')) {
  button.addEventListener('click', async () => {
    const redirect = button.dataset.redirect || undefined;
    const wanted = button.dataset.aal;
    try {
      const result = await usePasskey(redirect);
      if (wanted && LEVELS.indexOf(result.aal) < LEVELS.indexOf(wanted)) {
        location.href = '/account?stepup=' + wanted + (redirect ? '&redirect=' + encodeURIComponent(redirect) : '');
      } else {
        location.href = result.redirect;
      }
    } catch (error) { show('passkey-status', error.message, true); }
  });
}
`;
