import { describe, expect, it } from 'vitest';
import { constantTimeEqual, hashToken, newSecretToken } from './crypto.js';
import { isId, newId } from './ids.js';

describe('ids', () => {
  it('are the prefix plus 128 random bits in 26 base32 characters', () => {
    const id = newId('usr');
    expect(id).toMatch(/^usr_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(isId(id, 'usr')).toBe(true);
    expect(isId(id, 'org')).toBe(false);
    expect(isId('usr_../../etc/passwd', 'usr')).toBe(false);
  });

  it('do not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('doc')));
    expect(ids.size).toBe(10_000);
  });
});

describe('secret tokens', () => {
  it('are stored as lowercase hex SHA-256', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('carry 256 random bits after their prefix', () => {
    const token = newSecretToken('xkb');
    expect(token).toMatch(/^xkb_[A-Za-z0-9_-]{43}$/);
  });

  it('compare equal only when identical', () => {
    expect(constantTimeEqual('same', 'same')).toBe(true);
    expect(constantTimeEqual('same', 'Same')).toBe(false);
    expect(constantTimeEqual('short', 'longer value')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
