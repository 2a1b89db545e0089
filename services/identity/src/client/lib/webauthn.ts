/**
 * @module client/lib/webauthn
 * The WebAuthn ceremonies of the identity pages. The service speaks the JSON form
 * of @simplewebauthn (binary fields as base64url); the browser API wants buffers,
 * so the options are decoded and the credential encoded here.
 */
import { type Answer, xv } from './api.js';
import { t } from './i18n.js';

function encode(buffer: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decode(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

interface CredentialDescriptorJson {
  id: string;
  type: PublicKeyCredentialType;
  transports?: AuthenticatorTransport[];
}

type CreationOptionsJson = Omit<
  PublicKeyCredentialCreationOptions,
  'challenge' | 'user' | 'excludeCredentials'
> & {
  challenge: string;
  user: Omit<PublicKeyCredentialUserEntity, 'id'> & { id: string };
  excludeCredentials?: CredentialDescriptorJson[];
};

type RequestOptionsJson = Omit<PublicKeyCredentialRequestOptions, 'challenge' | 'allowCredentials'> & {
  challenge: string;
  allowCredentials?: CredentialDescriptorJson[];
};

const descriptor = (c: CredentialDescriptorJson): PublicKeyCredentialDescriptor => ({
  ...c,
  id: decode(c.id),
});

interface CredentialJson {
  id: string;
  rawId: string;
  type: string;
  clientExtensionResults: AuthenticationExtensionsClientOutputs;
  authenticatorAttachment?: string;
  response: Record<string, string | string[]>;
}

/** The credential as @simplewebauthn's JSON. */
function credentialJson(credential: PublicKeyCredential): CredentialJson {
  const out: CredentialJson = {
    id: credential.id,
    rawId: encode(credential.rawId),
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: { clientDataJSON: encode(credential.response.clientDataJSON) },
  };
  if (credential.authenticatorAttachment) out.authenticatorAttachment = credential.authenticatorAttachment;
  const r = credential.response;
  if (r instanceof AuthenticatorAttestationResponse) {
    out.response.attestationObject = encode(r.attestationObject);
    out.response.transports = typeof r.getTransports === 'function' ? r.getTransports() : [];
  } else if (r instanceof AuthenticatorAssertionResponse) {
    out.response.authenticatorData = encode(r.authenticatorData);
    out.response.signature = encode(r.signature);
    if (r.userHandle) out.response.userHandle = encode(r.userHandle);
  }
  return out;
}

function asPublicKeyCredential(credential: Credential | null): PublicKeyCredential {
  if (!(credential instanceof PublicKeyCredential)) throw new Error(t('api.noPasskey'));
  return credential;
}

/** Creates a passkey for the signed-in person (`password` when binding a first second factor). */
export async function createPasskey(name: string | undefined, password: string | undefined): Promise<Answer> {
  const o = (await xv(
    '/api/auth/passkey/register/options',
    password ? { password } : {},
  )) as unknown as CreationOptionsJson;
  const publicKey: PublicKeyCredentialCreationOptions = {
    ...o,
    challenge: decode(o.challenge),
    user: { ...o.user, id: decode(o.user.id) },
    excludeCredentials: (o.excludeCredentials ?? []).map(descriptor),
  };
  const credential = asPublicKeyCredential(await navigator.credentials.create({ publicKey }));
  return xv('/api/auth/passkey/register/verify', { response: credentialJson(credential), name });
}

/** Signs in (or steps up) with a passkey; the answer names the level reached and where to go. */
export async function usePasskey(redirect: string | undefined): Promise<Answer> {
  const o = (await xv('/api/auth/passkey/login/options', {})) as unknown as RequestOptionsJson;
  const publicKey: PublicKeyCredentialRequestOptions = {
    ...o,
    challenge: decode(o.challenge),
    allowCredentials: (o.allowCredentials ?? []).map(descriptor),
  };
  const credential = asPublicKeyCredential(await navigator.credentials.get({ publicKey }));
  return xv('/api/auth/passkey/login/verify', { response: credentialJson(credential), redirect });
}
