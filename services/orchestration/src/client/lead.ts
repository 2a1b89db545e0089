/**
 * The lead form's bot check (ALTCHA on): on submit, fetches a challenge from
 * `/api/lead/challenge`, solves it with WebCrypto the way altcha-lib's
 * `solveChallenge` does (ALTCHA v2: SHA-256 over salt ‖ nonce ‖ counter, a
 * deterministic counter from 0), fills the hidden `altcha` field and sends the form.
 */
import { localeOfTag, translator } from '@xv/platform/i18n';
import { messages } from '../messages/index.js';

const t = translator(messages, localeOfTag(document.documentElement.lang) ?? 'en');

interface ChallengeParameters {
  /** Hex. */
  salt: string;
  /** Hex. */
  nonce: string;
  keyPrefix: string;
  keyLength?: number;
  cost?: number;
}

interface Challenge {
  parameters: ChallengeParameters;
  signature?: string;
}

interface Solution {
  counter: number;
  derivedKey: string;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function bytes(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.substring(i * 2, i * 2 + 2), 16);
  return out;
}

async function sha256(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data));
}

async function solve(challenge: Challenge): Promise<Solution> {
  const p = challenge.parameters;
  const salt = bytes(p.salt);
  const nonce = bytes(p.nonce);
  const length = p.keyLength || 32;
  const data = new Uint8Array(salt.length + nonce.length + 4);
  data.set(salt, 0);
  data.set(nonce, salt.length);
  const view = new DataView(data.buffer);
  for (let counter = 0; counter <= 0xffffffff; counter++) {
    view.setUint32(salt.length + nonce.length, counter, false);
    let key = await sha256(data);
    for (let i = 1; i < (p.cost || 1); i++) key = await sha256(key);
    const derived = hex(key.slice(0, length));
    if (derived.startsWith(p.keyPrefix)) return { counter, derivedKey: derived };
  }
  throw new Error('unsolvable');
}

function start(): void {
  const form = document.getElementById('lead-form');
  const field = document.getElementById('altcha');
  const status = document.getElementById('status');
  if (!(form instanceof HTMLFormElement) || !(field instanceof HTMLInputElement) || !status) return;
  const button = form.querySelector('button');
  form.addEventListener('submit', async (event) => {
    if (field.value) return;
    event.preventDefault();
    if (button) button.disabled = true;
    status.className = 'status';
    status.textContent = t('lead.checking');
    try {
      const response = await fetch('/api/lead/challenge', { headers: { accept: 'application/json' } });
      const challenge = (await response.json()) as Challenge;
      const solution = await solve(challenge);
      field.value = btoa(JSON.stringify({ challenge, solution }));
      status.textContent = t('lead.sending');
      form.submit();
    } catch {
      if (button) button.disabled = false;
      status.className = 'status error';
      status.textContent = t('lead.checkFailed');
    }
  });
}

start();
