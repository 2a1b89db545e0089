/**
 * @module @xv/identity/testing/passkeys
 * A software WebAuthn authenticator, for tests that need a passkey (an AAL3 session):
 * real P-256 keys from node:crypto, `none` attestation, and the exact bytes a browser
 * hands the relying party (client data JSON, CBOR attestation object, authenticator
 * data, DER ECDSA signatures), so identity verifies them as it would a security key's.
 *
 * ```ts
 * const authenticator = new SoftwareAuthenticator();
 * await registerPasskey(identity.url, person.cookie, authenticator, { password });
 * const { cookie, session } = await signInWithPasskey(identity.url, authenticator, person.cookie);
 * // session.aal === 'AAL3'
 * ```
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AssuranceLevel } from '@xv/platform';
import { cookieFrom, type SignedIn, sessionOf } from './http.js';

/** WebAuthn authenticator data flags (WebAuthn Level 3, §6.1). */
const FLAG = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attested: 0x40 };
/** COSE: EC2 key type, ES256, curve P-256. */
const COSE = { kty: 1, alg: 3, crv: -1, x: -2, y: -3, EC2: 2, ES256: -7, P256: 1 };

interface Credential {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  signCount: number;
}

export interface AuthenticatorOptions {
  /** A key that cannot leave the device (backup-eligible flag off): AAL3 with user verification. Default true. */
  deviceBound?: boolean;
  /** The authenticator verifies the user (PIN, biometrics). Default true. */
  userVerified?: boolean;
  /**
   * `packed` attestation with this certificate chain (DER, the attestation certificate first) and the
   * attestation key of its first certificate (P-256). Default: `none` attestation.
   */
  attestation?: { certificates: Uint8Array[]; privateKey: KeyObject };
}

export class SoftwareAuthenticator {
  private readonly credentials: Credential[] = [];
  private readonly deviceBound: boolean;
  private readonly userVerified: boolean;
  private readonly attestation: AuthenticatorOptions['attestation'];

  constructor(options: AuthenticatorOptions = {}) {
    this.deviceBound = options.deviceBound ?? true;
    this.userVerified = options.userVerified ?? true;
    this.attestation = options.attestation;
  }

  /** `navigator.credentials.create()` on a page of `origin`: a new discoverable P-256 credential. */
  create(origin: string, options: PublicKeyCredentialCreationOptionsJSON): RegistrationResponseJSON {
    if (!options.pubKeyCredParams.some((p) => p.alg === COSE.ES256))
      throw new Error('NotSupportedError: the relying party does not accept ES256');
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const excluded = new Set(options.excludeCredentials?.map((c) => c.id));
    if (this.credentials.some((c) => c.rpId === rpId && excluded.has(c.id.toString('base64url'))))
      throw new Error('InvalidStateError: this authenticator already holds a passkey for the account');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential: Credential = {
      id: randomBytes(16),
      rpId,
      userHandle: options.user.id,
      privateKey,
      signCount: 0,
    };
    this.credentials.push(credential);
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, Cbor>([
      [COSE.kty, COSE.EC2],
      [COSE.alg, COSE.ES256],
      [COSE.crv, COSE.P256],
      [COSE.x, Buffer.from(jwk.x!, 'base64url')],
      [COSE.y, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const attestedCredentialData = Buffer.concat([Buffer.alloc(16), idLength, credential.id, cbor(coseKey)]);
    const authData = Buffer.concat([
      this.authenticatorData(credential, FLAG.attested),
      attestedCredentialData,
    ]);
    const clientDataJSON = clientData('webauthn.create', options.challenge, origin);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', this.attestation ? 'packed' : 'none'],
        ['attStmt', this.attestationStatement(authData, clientDataJSON)],
        ['authData', authData],
      ]),
    );
    const id = credential.id.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** `navigator.credentials.get()` on a page of `origin`: an assertion by an allowed credential. */
  get(origin: string, options: PublicKeyCredentialRequestOptionsJSON): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(origin).hostname;
    const allowed = new Set(options.allowCredentials?.map((c) => c.id));
    const credential = this.credentials.find(
      (c) => c.rpId === rpId && (allowed.size === 0 || allowed.has(c.id.toString('base64url'))),
    );
    if (!credential) throw new Error('NotAllowedError: no passkey of this authenticator fits the request');
    credential.signCount++;
    const authenticatorData = this.authenticatorData(credential, 0);
    const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
    const signed = Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]);
    const id = credential.id.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        // ES256 assertions are ASN.1 DER, node:crypto's default encoding.
        signature: sign('sha256', signed, credential.privateKey).toString('base64url'),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** A `packed` statement (WebAuthn §8.2): the attestation key signs authData ‖ SHA-256(clientDataJSON). */
  private attestationStatement(authData: Buffer, clientDataJSON: Buffer): Map<string, Cbor> {
    if (!this.attestation) return new Map();
    const signed = Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]);
    return new Map<string, Cbor>([
      ['alg', COSE.ES256],
      ['sig', sign('sha256', signed, this.attestation.privateKey)],
      ['x5c', this.attestation.certificates],
    ]);
  }

  /** rpIdHash ‖ flags ‖ signCount (big-endian), the start of every authenticator data. */
  private authenticatorData(credential: Credential, extraFlags: number): Buffer {
    let flags = FLAG.userPresent | extraFlags;
    if (this.userVerified) flags |= FLAG.userVerified;
    if (!this.deviceBound) flags |= FLAG.backupEligible | FLAG.backedUp;
    const head = Buffer.alloc(37);
    createHash('sha256').update(credential.rpId).digest().copy(head, 0);
    head.writeUInt8(flags, 32);
    head.writeUInt32BE(credential.signCount, 33);
    return head;
  }
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** The part of CBOR (RFC 8949) WebAuthn needs: integers, byte and text strings, arrays, maps. */
type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(cbor)]);
  const entries = [...value].flatMap(([key, item]) => [cbor(key), cbor(item)]);
  return Buffer.concat([cborHead(5, value.size), ...entries]);
}

/** A major type with its argument, in the shortest form. */
function cborHead(major: number, argument: number): Buffer {
  if (!Number.isSafeInteger(argument) || argument < 0 || argument > 0xffffffff)
    throw new RangeError('CBOR arguments here fit in 32 bits');
  if (argument < 24) return Buffer.from([(major << 5) | argument]);
  if (argument <= 0xff) return Buffer.from([(major << 5) | 24, argument]);
  const head = Buffer.alloc(argument <= 0xffff ? 3 : 5);
  head[0] = (major << 5) | (argument <= 0xffff ? 25 : 26);
  if (argument <= 0xffff) head.writeUInt16BE(argument, 1);
  else head.writeUInt32BE(argument, 1);
  return head;
}

async function post(url: string, cookie: string | undefined, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

async function expectOk(response: Response, what: string) {
  if (response.status !== 200)
    throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/**
 * Adds a passkey of `authenticator` to the signed-in person's account, as the /account page does.
 * The first second factor of an account needs its `password`; later ones a session that proved AAL2
 * in the last 10 minutes. Registering does not raise the session: `signInWithPasskey` does.
 */
export async function registerPasskey(
  identityUrl: string,
  cookie: string,
  authenticator: SoftwareAuthenticator,
  options: { name?: string; password?: string } = {},
): Promise<{ id: string; aal: AssuranceLevel }> {
  const origin = new URL(identityUrl).origin;
  const name = options.name ?? 'Test passkey';
  const creation = await expectOk(
    await post(
      `${identityUrl}/api/auth/passkey/register/options`,
      cookie,
      options.password ? { password: options.password } : {},
    ),
    'passkey registration options',
  );
  const response = authenticator.create(origin, creation);
  const stored = await expectOk(
    await post(`${identityUrl}/api/auth/passkey/register/verify`, cookie, { response, name }),
    'passkey registration',
  );
  return { id: stored.id, aal: stored.aal };
}

/**
 * Signs in with a passkey of `authenticator`, as the login page does. With the cookie of
 * the same person's session it is a step-up: the session is raised under a new cookie
 * (the old one ends). Without one it is a fresh sign-in.
 */
export async function signInWithPasskey(
  identityUrl: string,
  authenticator: SoftwareAuthenticator,
  cookie?: string,
): Promise<SignedIn> {
  const origin = new URL(identityUrl).origin;
  const options = await expectOk(
    await post(`${identityUrl}/api/auth/passkey/login/options`, cookie, {}),
    'passkey sign-in options',
  );
  const response = await post(`${identityUrl}/api/auth/passkey/login/verify`, cookie, {
    response: authenticator.get(origin, options),
  });
  await expectOk(response.clone(), 'passkey sign-in');
  const next = cookieFrom(response, 'xv_session');
  if (!next) throw new Error('passkey sign-in set no session cookie');
  return { cookie: next, session: await sessionOf(identityUrl, next) };
}
