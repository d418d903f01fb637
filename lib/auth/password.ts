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

/** A random 16-byte salt unless one is given (the launcher derives a stable one: lib/auth/secret.ts). */
export async function hashPassword(
  password: string,
  params: PasswordHash["params"] = DEFAULT_PARAMS,
  salt: Buffer = randomBytes(16),
): Promise<PasswordHash> {
  return { salt, hash: await derive(password, salt, params), params };
}

export async function verifyPassword(candidate: string, stored: PasswordHash): Promise<boolean> {
  const key = await derive(candidate, stored.salt, stored.params);
  return key.length === stored.hash.length && timingSafeEqual(key, stored.hash);
}

/**
 * The text form of ARBOR_PASSWORD_HASH: `scrypt$<N>$<r>$<p>$<salt>$<hash>`, salt and hash in
 * base64url (`npm run cli -- hash-password` prints one).
 */
export function formatPasswordHash({ salt, hash, params }: PasswordHash): string {
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

/** Parses the text form; throws an Error saying what is wrong (the environment check shows it). */
export function parsePasswordHash(text: string): PasswordHash {
  const parts = text.trim().split("$");
  const [kind, n, r, p, salt, hash] = parts;
  if (parts.length !== 6 || kind !== "scrypt") throw new Error("expected scrypt$N$r$p$salt$hash (npm run cli -- hash-password prints one)");
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const power = Number.isInteger(params.N) && params.N >= 1024 && params.N <= 1 << 20 && (params.N & (params.N - 1)) === 0;
  if (!power || !Number.isInteger(params.r) || params.r < 1 || params.r > 32 || !Number.isInteger(params.p) || params.p < 1 || params.p > 16) {
    throw new Error("scrypt parameters out of range (N a power of two in 1024…1048576, r 1…32, p 1…16)");
  }
  const b64 = /^[\w-]+$/;
  if (!salt || !hash || !b64.test(salt) || !b64.test(hash)) throw new Error("salt and hash must be base64url");
  const decoded = { salt: Buffer.from(salt, "base64url"), hash: Buffer.from(hash, "base64url") };
  if (decoded.salt.length < 8 || decoded.hash.length !== KEY_LENGTH) throw new Error(`the salt needs 8+ bytes and the hash exactly ${KEY_LENGTH}`);
  return { ...decoded, params };
}
