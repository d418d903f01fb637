import "server-only";
/**
 * The embedded server's credentials file, `<cluster folder>/arbor-secret.json`.
 *
 * Contract:
 * - Holds two random passwords: the superuser's (migrations, creating databases and roles) and
 *   the app role's (everything the app itself does). Made once per cluster: before initdb for a
 *   new cluster (written right after it), or when an old cluster still on the former fixed
 *   `arbor` / `arbor` credentials is upgraded.
 * - Mode 0600, created exclusively (`wx`), so two processes starting at once agree on one file.
 *   A file found with wider permissions is narrowed to 0600 before it is read.
 * - Kept inside the cluster folder, so it moves and is deleted together with the data it opens
 *   (a fresh cluster never meets a stale secret). Never in the repository, never logged.
 */
import { randomBytes } from "node:crypto";
import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";

export const SECRET_FILE = "arbor-secret.json";

export interface EmbeddedSecret {
  superuserPassword: string;
  appPassword: string;
}

export function secretPath(clusterDir: string): string {
  return path.join(clusterDir, SECRET_FILE);
}

export function generateSecret(): EmbeddedSecret {
  return { superuserPassword: randomBytes(24).toString("base64url"), appPassword: randomBytes(24).toString("base64url") };
}

function parse(file: string, text: string): EmbeddedSecret {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON: restore it, or remove the cluster folder to start with an empty database`);
  }
  const v = value as Partial<EmbeddedSecret> | null;
  if (typeof v?.superuserPassword !== "string" || typeof v.appPassword !== "string" || !v.superuserPassword || !v.appPassword) {
    throw new Error(`${file} lacks superuserPassword / appPassword: restore it, or remove the cluster folder to start with an empty database`);
  }
  return { superuserPassword: v.superuserPassword, appPassword: v.appPassword };
}

/** The secret of `clusterDir`, or undefined when it has none yet. */
export async function readSecret(clusterDir: string): Promise<EmbeddedSecret | undefined> {
  const file = secretPath(clusterDir);
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!info) return undefined;
  if ((info.mode & 0o077) !== 0) await chmod(file, 0o600);
  return parse(file, await readFile(file, "utf8"));
}

/**
 * Writes `secret` unless the cluster already has one; returns the one that is on disk then
 * (another process may have written it first).
 */
export async function writeSecret(clusterDir: string, secret: EmbeddedSecret): Promise<EmbeddedSecret> {
  try {
    await writeFile(secretPath(clusterDir), `${JSON.stringify(secret, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readSecret(clusterDir)) ?? secret;
  }
}
