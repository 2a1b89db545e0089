import { describe, expect, it } from 'vitest';
import { passkeyAmr, passkeyAssurance } from './webauthn.js';

describe('what a passkey proves', () => {
  it('is AAL3 only when device-bound and user-verified', () => {
    expect(passkeyAssurance({ deviceBound: true, userVerified: true })).toBe('AAL3');
    expect(passkeyAssurance({ deviceBound: false, userVerified: true })).toBe('AAL2');
    expect(passkeyAssurance({ deviceBound: true, userVerified: false })).toBe('AAL1');
    expect(passkeyAssurance({ deviceBound: false, userVerified: false })).toBe('AAL1');
  });

  it('names hardware or software keys, and multi-factor when the user was verified', () => {
    expect(passkeyAmr({ deviceBound: true, userVerified: true })).toEqual(['hwk', 'mfa']);
    expect(passkeyAmr({ deviceBound: false, userVerified: false })).toEqual(['swk']);
  });
});
