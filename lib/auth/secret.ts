/**
 * The sign-in secret: ARBOR_SESSION_SECRET when set, else 32 random bytes generated once and kept
 * in `<data dir>/session-secret` (created 0600, readable only by Arbor's user), so a restart no
 * longer signs everyone out. The launcher and the app share the file (the launcher creates it
 * first; `wx` makes a race between two creators end with both reading the winner's file).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/data-dir";
import { env } from "@/lib/env";

export const SECRET_FILE = "session-secret";

export function secretFilePath(dir = dataDir()): string {
  return path.join(dir, SECRET_FILE);
}

/** Reads the secret file, creating it (0600) when missing; a file others can read is tightened to 0600. */
export function fileSecret(file = secretFilePath()): string {
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 16) throw new Error(`${file} holds no usable secret (delete it and Arbor writes a new one)`);
  return secret;
}

/** The secret in use (see the header). */
export function sessionSecret(): string {
  return env.ARBOR_SESSION_SECRET ?? fileSecret();
}
