/**
 * @module client/lib/passkey-login
 * Buttons marked `data-passkey-login` sign in (or step up) with a passkey, then go
 * where the service says, or to the account page when the level the page asked
 * for (`data-aal`) was not reached.
 */
import { messageOf, show, text } from './api.js';
import { usePasskey } from './webauthn.js';

const LEVELS = ['AAL1', 'AAL2', 'AAL3'];

export function wirePasskeyLogin() {
  for (const button of document.querySelectorAll<HTMLElement>('[data-passkey-login]')) {
    button.addEventListener('click', async () => {
      const redirect = button.dataset.redirect || undefined;
      const wanted = button.dataset.aal;
      try {
        const result = await usePasskey(redirect);
        if (wanted && LEVELS.indexOf(text(result, 'aal')) < LEVELS.indexOf(wanted)) {
          location.href = `/account?stepup=${wanted}${redirect ? `&redirect=${encodeURIComponent(redirect)}` : ''}`;
        } else {
          location.href = text(result, 'redirect');
        }
      } catch (error) {
        show('passkey-status', messageOf(error), true);
      }
    });
  }
}
