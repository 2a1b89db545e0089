/**
 * @module sign-in/devices
 * Known devices: a browser that signed in to an account gets `xv_device`, an
 * HttpOnly cookie, sent only to `/api/auth`, that names a random device id and the
 * user, sealed (AES-256-GCM) with the service's key-encryption key so that it can be
 * neither read nor forged. Showing it exempts that browser from the waits other
 * sources' failures cause for that account (sign-in/throttle.ts); its own failures are
 * counted against the device. The cookie itself is set in `http/sign-in.ts`.
 */
import { type KeyEncryptionKey, newId } from '@xv/platform';

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

/** The device id a sealed claim names when it was issued to `userId`, else null. */
export function deviceOf(
  kek: KeyEncryptionKey,
  sealed: string | undefined,
  userId: string | null | undefined,
): string | null {
  if (!userId) return null;
  const claim = openDevice(kek, sealed);
  return claim?.u === userId ? claim.d : null;
}

/** A sealed claim that this browser is a known device of `userId` (keeping its device id when it was one). */
export function sealDevice(kek: KeyEncryptionKey, userId: string, device: string | null): string {
  const claim: DeviceClaim = { d: device ?? newId('dev'), u: userId };
  return kek.encrypt(new TextEncoder().encode(JSON.stringify(claim)), SEAL_CONTEXT);
}

function isClaim(value: unknown): value is DeviceClaim {
  if (typeof value !== 'object' || value === null) return false;
  const { d, u } = value as Record<string, unknown>;
  return typeof d === 'string' && typeof u === 'string';
}

function openDevice(kek: KeyEncryptionKey, value: string | undefined): DeviceClaim | null {
  if (!value || value.length > 512) return null;
  try {
    const claim: unknown = JSON.parse(kek.decrypt(value, SEAL_CONTEXT).toString('utf8'));
    if (isClaim(claim)) return claim;
  } catch {
    // A cookie that does not open is no device of ours.
  }
  return null;
}
