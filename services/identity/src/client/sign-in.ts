/**
 * @module client/sign-in
 * The sign-in page's script: the passkey button.
 */
import { wirePasskeyLogin } from './lib/passkey-login.js';

wirePasskeyLogin();
