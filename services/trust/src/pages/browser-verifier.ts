/**
 * @module pages/browser-verifier
 * The proof check that runs in a visitor's browser, so a proof file never leaves
 * their machine. Plain JavaScript with no dependencies, served inline:
 * RFC 8785 canonicalisation, SHA-256 and P-256 through WebCrypto, and a small
 * Keccak-256 and secp256k1 public-key recovery (BigInt) for the EIP-191 signature.
 *
 * `XV.verifyProof(proofText, jwks)` resolves to
 * `{ status, valid, signatureValid, issuerVerified, integrity, manifestHash, issuer,
 * checks, reason?, anchor? }`, by the server's rule (`seal/verify.ts`): both signatures must
 * check against the key set entry the claim names, published under the organization
 * the claim names, and the claim's date must fall inside that key's window.
 * `XV.explain(result)` says the verdict in the words of the server's pages.
 * A proof's `anchor` is checked here as far as a browser can: it names this proof's
 * fingerprint and its Merkle path (sorted-pair Keccak-256) leads to `root`; whether
 * the chain holds `root` in `txHash` is then asked with those two hashes only
 * (`GET /api/anchor/check`).
 */
import { DEMO_ISSUER_ID } from '../issuers/directory.js';
import { KEY_CLOCK_SKEW_MS } from '../issuers/published-keys.js';
import { REASON_WORDS, VALID_WORDS } from './verdict-words.js';

export const VERIFIER_CORE = String.raw`
'use strict';
const XV = (() => {
  const DEMO_ISSUER_ID = ${JSON.stringify(DEMO_ISSUER_ID)};
  const KEY_CLOCK_SKEW_MS = ${KEY_CLOCK_SKEW_MS};
  const VALID_WORDS = ${JSON.stringify(VALID_WORDS)};
  const REASON_WORDS = ${JSON.stringify(REASON_WORDS)};
  const M64 = (1n << 64n) - 1n;
  const RC = [0x1n, 0x8082n, 0x800000000000808an, 0x8000000080008000n, 0x808bn, 0x80000001n,
    0x8000000080008081n, 0x8000000000008009n, 0x8an, 0x88n, 0x80008009n, 0x8000000an, 0x8000808bn,
    0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n, 0x8000000000008002n,
    0x8000000000000080n, 0x800an, 0x800000008000000an, 0x8000000080008081n, 0x8000000000008080n,
    0x80000001n, 0x8000000080008008n];
  const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14].map(BigInt);
  const rotl = (a, n) => (n === 0n ? a : ((a << n) | (a >> (64n - n))) & M64);

  function keccakF(s) {
    for (let round = 0; round < 24; round++) {
      const C = [];
      for (let x = 0; x < 5; x++) C[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
      for (let x = 0; x < 5; x++) {
        const D = C[(x + 4) % 5] ^ rotl(C[(x + 1) % 5], 1n);
        for (let y = 0; y < 25; y += 5) s[y + x] ^= D;
      }
      const B = new Array(25);
      for (let x = 0; x < 5; x++)
        for (let y = 0; y < 5; y++) B[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(s[x + 5 * y], ROT[x + 5 * y]);
      for (let x = 0; x < 5; x++)
        for (let y = 0; y < 5; y++)
          s[x + 5 * y] = B[x + 5 * y] ^ ((B[((x + 1) % 5) + 5 * y] ^ M64) & B[((x + 2) % 5) + 5 * y]);
      s[0] ^= RC[round];
    }
  }

  /** Keccak-256 (the Ethereum one, not SHA3-256) of bytes. */
  function keccak256(bytes) {
    const rate = 136;
    const padded = new Uint8Array(Math.floor(bytes.length / rate) * rate + rate);
    padded.set(bytes);
    padded[bytes.length] ^= 0x01;
    padded[padded.length - 1] ^= 0x80;
    const s = new Array(25).fill(0n);
    for (let off = 0; off < padded.length; off += rate) {
      for (let i = 0; i < rate / 8; i++) {
        let lane = 0n;
        for (let b = 7; b >= 0; b--) lane = (lane << 8n) | BigInt(padded[off + i * 8 + b]);
        s[i] ^= lane;
      }
      keccakF(s);
    }
    const out = new Uint8Array(32);
    for (let i = 0; i < 4; i++) for (let b = 0; b < 8; b++) out[i * 8 + b] = Number((s[i] >> BigInt(8 * b)) & 0xffn);
    return out;
  }

  const P = (1n << 256n) - (1n << 32n) - 977n;
  const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const G = [0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
    0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n];
  const mod = (a, m) => ((a % m) + m) % m;
  function inv(a, m) {
    let [r0, r1, t0, t1] = [mod(a, m), m, 1n, 0n];
    while (r1 !== 0n) {
      const q = r0 / r1;
      [r0, r1] = [r1, r0 - q * r1];
      [t0, t1] = [t1, t0 - q * t1];
    }
    return mod(t0, m);
  }
  function pow(b, e, m) {
    let r = 1n;
    b = mod(b, m);
    while (e > 0n) {
      if (e & 1n) r = (r * b) % m;
      b = (b * b) % m;
      e >>= 1n;
    }
    return r;
  }
  function add(A, B) {
    if (!A) return B;
    if (!B) return A;
    let lam;
    if (A[0] === B[0]) {
      if (mod(A[1] + B[1], P) === 0n) return null;
      lam = mod(3n * A[0] * A[0] * inv(2n * A[1], P), P);
    } else {
      lam = mod((B[1] - A[1]) * inv(B[0] - A[0], P), P);
    }
    const x = mod(lam * lam - A[0] - B[0], P);
    return [x, mod(lam * (A[0] - x) - A[1], P)];
  }
  function mul(k, Q) {
    let R = null;
    for (let bit = BigInt(k.toString(2).length - 1); bit >= 0n; bit--) {
      R = add(R, R);
      if ((k >> bit) & 1n) R = add(R, Q);
    }
    return R;
  }
  const toBig = (bytes) => BigInt('0x' + (hex(bytes) || '0'));
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const fromHex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
  const big32 = (n) => fromHex(n.toString(16).padStart(64, '0'));

  /** The Ethereum address that made a 65-byte signature r‖s‖v over the 32-byte hash z. */
  function recoverAddress(z, sig) {
    const r = toBig(sig.slice(0, 32));
    const s = toBig(sig.slice(32, 64));
    const v = sig[64];
    const recId = v >= 27 ? v - 27 : v;
    if (recId > 1 || r === 0n || s === 0n || r >= N || s >= N) return null;
    const y2 = mod(r * r * r + 7n, P);
    let y = pow(y2, (P + 1n) / 4n, P);
    if ((y * y) % P !== y2) return null;
    if (Number(y & 1n) !== recId) y = P - y;
    const rInv = inv(r, N);
    const Q = add(mul(mod(-toBig(z) * rInv, N), G), mul(mod(s * rInv, N), [r, y]));
    if (!Q) return null;
    const pub = new Uint8Array(64);
    pub.set(big32(Q[0]));
    pub.set(big32(Q[1]), 32);
    return '0x' + hex(keccak256(pub).slice(12));
  }

  /** RFC 8785: keys sorted by UTF-16 code units, ECMAScript number and string forms. */
  function canonicalize(value) {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return '[' + value.map(canonicalize).join(',') + ']';
    return '{' + Object.keys(value).sort().filter((k) => value[k] !== undefined)
      .map((k) => JSON.stringify(k) + ':' + canonicalize(value[k])).join(',') + '}';
  }

  const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
  function base64url(text) {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }
  const toBase64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

  async function p256Valid(jwk, data, sig) {
    if (typeof sig !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(sig)) return false;
    const raw = base64url(sig);
    if (raw.length !== 64 || toBase64url(raw) !== sig) return false;
    try {
      const key = await crypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, ext: true },
        { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
      return await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, raw, data);
    } catch (e) {
      return false;
    }
  }

  function ethValid(address, digest, sig) {
    if (typeof sig !== 'string' || !/^0x[0-9a-f]{130}$/.test(sig) || typeof address !== 'string') return false;
    const prefix = new TextEncoder().encode('\x19Ethereum Signed Message:\n32');
    const message = new Uint8Array(prefix.length + 32);
    message.set(prefix);
    message.set(digest, prefix.length);
    const recovered = recoverAddress(keccak256(message), fromHex(sig.slice(2)));
    return recovered !== null && recovered === address.toLowerCase();
  }

  const HASH32 = /^0x[0-9a-f]{64}$/;

  /** A proof's anchor (version 1: the transaction carries ref itself; 2: ref, root and path). */
  function checkAnchor(anchor, fingerprint) {
    if (!isObject(anchor) || !HASH32.test(anchor.ref) || !HASH32.test(anchor.txHash))
      return { inclusion: false, problem: 'malformed' };
    const version = anchor.version === undefined ? 1 : anchor.version;
    const root = version === 1 ? anchor.ref : anchor.root;
    const path = version === 1 ? [] : anchor.path;
    const out = { version, txHash: anchor.txHash, root, path };
    if ((version !== 1 && version !== 2) || typeof root !== 'string' || !HASH32.test(root) || !Array.isArray(path) ||
      path.length > 64 || !path.every((node) => typeof node === 'string' && HASH32.test(node)))
      return { ...out, inclusion: false, problem: 'malformed' };
    if (anchor.ref !== fingerprint) return { ...out, inclusion: false, problem: 'wrong_ref' };
    let node = anchor.ref.slice(2);
    for (const sibling of path) {
      const [lo, hi] = node <= sibling.slice(2) ? [node, sibling.slice(2)] : [sibling.slice(2), node];
      node = hex(keccak256(fromHex(lo + hi)));
    }
    return '0x' + node === root ? { ...out, inclusion: true } : { ...out, inclusion: false, problem: 'wrong_path' };
  }

  async function verifyProof(proofText, jwks) {
    let proof;
    try {
      proof = JSON.parse(proofText);
    } catch (e) {
      return { status: 'malformed', message: 'The file is not JSON.' };
    }
    if (!isObject(proof) || !isObject(proof.claim) || !isObject(proof.signatures))
      return { status: 'malformed', message: 'The file is not an XV proof ({claim, signatures}).' };
    const extra = Object.keys(proof).filter((k) => !['claim', 'manifestHash', 'signatures', 'anchor'].includes(k))
      .concat(Object.keys(proof.signatures).filter((k) => !['p256Sig', 'ethSig'].includes(k)));
    if (extra.length > 0) return { status: 'malformed', message: 'The proof has unexpected fields: ' + extra.join(', ') };
    const claim = proof.claim;
    const issuer = isObject(claim.issuer) ? claim.issuer : {};
    const data = new TextEncoder().encode(canonicalize(claim));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
    const manifestHash = 'sha256-' + hex(digest);
    const hashMatches = proof.manifestHash === undefined ? null : proof.manifestHash === manifestHash;
    const orgKeys = ((jwks && jwks.keys) || []).filter((k) => k.kid === issuer.orgId);
    const entry = orgKeys.find((k) => k.keyId === issuer.keyId);
    const result = { manifestHash, issuer: { orgId: issuer.orgId ?? null, keyId: issuer.keyId ?? null }, claim };
    if (proof.anchor !== undefined) result.anchor = checkAnchor(proof.anchor, '0x' + hex(digest));
    const verdict = (integrity, signatureValid, reason, checks) => ({
      ...result, status: reason ? 'invalid' : 'valid', valid: !reason, signatureValid, issuerVerified: !reason,
      integrity, checks, ...(reason ? { reason } : {}),
    });
    if (!entry) {
      const reason = issuer.orgId === DEMO_ISSUER_ID ? 'demo_issuer' : orgKeys.length > 0 ? 'unknown_issuer_key' : 'unknown_issuer';
      return verdict(hashMatches === false ? 'tampered' : 'unverified', false, reason,
        { manifestHash: hashMatches, p256Sig: false, ethSig: false });
    }
    // Both signatures against the same published entry.
    const checks = {
      manifestHash: hashMatches,
      p256Sig: await p256Valid(entry.jwk, data, proof.signatures.p256Sig),
      ethSig: ethValid(entry.ethAddress, digest, proof.signatures.ethSig),
    };
    if (hashMatches === false || (!checks.p256Sig && !checks.ethSig)) return verdict('tampered', false, 'tampered', checks);
    if (!checks.p256Sig || !checks.ethSig) return verdict('intact', false, 'bad_signature', checks);
    if (String(issuer.ethAddress).toLowerCase() !== String(entry.ethAddress).toLowerCase())
      return verdict('intact', true, 'unknown_issuer_key', checks);
    const at = Date.parse(claim.issuedAt);
    if (Number.isNaN(at) || at < Date.parse(entry.createdAt) - KEY_CLOCK_SKEW_MS)
      return verdict('intact', true, 'key_not_yet_valid', checks);
    if ((entry.status === 'retired' && !entry.retiredAt) || (entry.retiredAt && at > Date.parse(entry.retiredAt)))
      return verdict('intact', true, 'key_retired', checks);
    return verdict('intact', true, undefined, checks);
  }

  /** The verdict in plain words, naming the organization the proof claims to come from. */
  function explain(result) {
    const claimed = result.claim && isObject(result.claim.issuer) ? result.claim.issuer : {};
    const issuer = String(claimed.name || claimed.orgId || 'the issuer');
    if (result.valid) return VALID_WORDS.split('{issuer}').join(issuer);
    const words = REASON_WORDS[result.reason] || result.message || result.status;
    return '✘ Not valid: ' + String(words).split('{issuer}').join(issuer);
  }

  return { verifyProof, explain, keccak256, recoverAddress, canonicalize };
})();
`;
