/**
 * The sign-in decision behind POST /api/auth/login.
 * 1. Pick the limiter bucket: a valid device cookie (a browser that signed in here before) gets
 *    its own, keyed by the device id; every other attempt shares the bucket of its client address
 *    (lib/auth/client-address.ts). So strangers on the owner's address (on a local tool, every
 *    process is loopback, one bucket for all of it: lib/auth/ip.ts) only slow down each other and brand-new browsers, never the owner's
 *    known browser.
 * 2. Reserve an attempt (counted before the check: parallel bursts are limited as they arrive).
 * 3. Check the password (scrypt). A success gives the attempt back (a device bucket is cleared),
 *    stores a session and, for a browser without one, issues a device cookie.
 */
import { UNKNOWN_ADDRESS } from "./client-address";
import { addressBucket } from "./ip";
import { verifyPassword } from "./password";
import { issueSession } from "./sessions";
import { authKeys, loginLimiter } from "./state";
import { signDeviceToken, verifyDeviceToken } from "./token";

export const WRONG_PASSWORD = "Wrong password";

export function tooManyAttemptsMessage(seconds: number): string {
  return `Too many attempts — try again in ${seconds} second${seconds === 1 ? "" : "s"}`;
}

export type SignInResult =
  | { ok: true; token: string; expiresAt: number; deviceToken: string | undefined }
  | { ok: false; status: 401; error: string }
  | { ok: false; status: 429; error: string; retryAfterSeconds: number };

export interface SignInRequest {
  password: string;
  /** The client address (lib/auth/client-address.ts). */
  address: string;
  /** The device cookie's value, if the browser sent one. */
  deviceToken: string | undefined;
  userAgent: string | null;
  now?: number;
}

/** The limiter bucket of an attempt (see the header). */
export async function signInBucket({ address, deviceToken }: Pick<SignInRequest, "address" | "deviceToken">): Promise<{ key: string; deviceId?: string }> {
  const deviceId = verifyDeviceToken(deviceToken, (await authKeys()).deviceKey);
  return deviceId ? { key: `device:${deviceId}`, deviceId } : { key: `address:${addressBucket(address)}` };
}

export async function signIn({ password, address, deviceToken, userAgent, now = Date.now() }: SignInRequest): Promise<SignInResult> {
  const keys = await authKeys();
  const bucket = await signInBucket({ address, deviceToken });
  const limiter = loginLimiter();
  const reserved = limiter.reserve(bucket.key, now);
  if (!reserved.allowed) {
    return { ok: false, status: 429, error: tooManyAttemptsMessage(reserved.retryAfterSeconds), retryAfterSeconds: reserved.retryAfterSeconds };
  }
  if (!(await verifyPassword(password, keys.hash))) return { ok: false, status: 401, error: WRONG_PASSWORD };
  limiter.succeeded(bucket.key, { forget: bucket.deviceId !== undefined });
  const session = await issueSession({ userAgent, clientAddress: address === UNKNOWN_ADDRESS ? null : address, now });
  return { ok: true, ...session, deviceToken: bucket.deviceId ? undefined : signDeviceToken(keys.deviceKey).token };
}
