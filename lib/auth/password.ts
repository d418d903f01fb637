/**
 * Password hashing with scrypt (node:crypto; no native packages).
 * Contract: `hashPassword` draws a random 16-byte salt; `verifyPassword` re-derives with the
 * stored salt and parameters and compares with `timingSafeEqual`, so the time taken does not
 * depend on how much of the candidate matches. No disk, network or database access.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

export interface PasswordHash {
  salt: Buffer;
  hash: Buffer;
  params: { N: number; r: number; p: number };
}

/** 2^15 × 8 × 128 B = 32 MiB per derivation, roughly 50–100 ms: slow for guessing, fine for one user. */
const DEFAULT_PARAMS = { N: 1 << 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: PasswordHash["params"]): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: PasswordHash["params"] = DEFAULT_PARAMS): Promise<PasswordHash> {
  const salt = randomBytes(16);
  return { salt, hash: await derive(password, salt, params), params };
}

export async function verifyPassword(candidate: string, stored: PasswordHash): Promise<boolean> {
  const key = await derive(candidate, stored.salt, stored.params);
  return key.length === stored.hash.length && timingSafeEqual(key, stored.hash);
}
