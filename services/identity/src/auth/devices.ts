/**
 * @module auth/devices
 * Known devices: a browser that signed in to an account gets `xv_device`, an
 * HttpOnly cookie, sent only to `/api/auth`, that names a random device id and the
 * user, sealed (AES-256-GCM) with the service's key-encryption key so that it can be
 * neither read nor forged. Showing it exempts that browser from the waits other
 * sources' failures cause for that account (auth/throttle.ts); its own failures are
 * counted against the device.
 */
import { newId } from '@xv/platform';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { IdentityContext } from '../context.js';

export const DEVICE_COOKIE = 'xv_device';
/** How long a browser stays known without signing in again. */
export const DEVICE_SECONDS = 180 * 24 * 3600;
/** Authenticated-encryption context: a device cookie opens as nothing else. */
const SEAL_CONTEXT = 'xv_device/v1';

interface DeviceClaim {
  /** Device id. */
  d: string;
  /** User id. */
  u: string;
}

/** The device id of the request's `xv_device` cookie when it was issued to `userId`, else null. */
export function knownDevice(
  identity: IdentityContext,
  c: Context,
  userId: string | null | undefined,
): string | null {
  if (!userId) return null;
  const claim = openDevice(identity, getCookie(c, DEVICE_COOKIE));
  return claim?.u === userId ? claim.d : null;
}

/** Marks this browser as a known device of `userId`, keeping its device id when it already was one. */
export function rememberDevice(identity: IdentityContext, c: Context, userId: string) {
  const device = knownDevice(identity, c, userId) ?? newId('dev');
  const claim: DeviceClaim = { d: device, u: userId };
  const sealed = identity.kek.encrypt(new TextEncoder().encode(JSON.stringify(claim)), SEAL_CONTEXT);
  setCookie(c, DEVICE_COOKIE, sealed, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'Strict',
    secure: new URL(identity.identityUrl).protocol === 'https:',
    maxAge: DEVICE_SECONDS,
  });
}

function openDevice(identity: IdentityContext, value: string | undefined): DeviceClaim | null {
  if (!value || value.length > 512) return null;
  try {
    const claim: unknown = JSON.parse(identity.kek.decrypt(value, SEAL_CONTEXT).toString('utf8'));
    if (
      typeof claim === 'object' &&
      claim !== null &&
      typeof (claim as DeviceClaim).d === 'string' &&
      typeof (claim as DeviceClaim).u === 'string'
    )
      return claim as DeviceClaim;
  } catch {
    // A cookie that does not open is no device of ours.
  }
  return null;
}
