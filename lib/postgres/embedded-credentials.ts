import "server-only";
/**
 * The superuser's credentials of an embedded cluster (the contract is embedded.ts's): the random
 * passwords of the 0600 secret file (embedded-secret.ts), and the upgrade of a cluster made
 * before that file existed (superuser password `arbor`): its password is rotated, its data kept.
 */
import path from "node:path";
import pg from "pg";
import { buildUrl, type Endpoint } from "./embedded-endpoint";
import { type EmbeddedSecret, generateSecret, readSecret, writeSecret } from "./embedded-secret";

export const SUPERUSER = "arbor";
/** The superuser password of clusters created before the secret file (upgraded on start). */
const LEGACY_PASSWORD = "arbor";

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The superuser's credentials for the server at `ep`, upgrading an old cluster: when the secret's
 * password is refused but the former fixed one works, the password is rotated to the secret's
 * (created first, so a crash in between leaves a file whose password the next start sets).
 */
export async function credentials(dir: string, ep: Endpoint): Promise<EmbeddedSecret> {
  const secret = await readSecret(dir);
  if (secret && (await canConnect(buildUrl(ep, SUPERUSER, secret.superuserPassword, "postgres")))) return secret;
  const legacyUrl = buildUrl(ep, SUPERUSER, LEGACY_PASSWORD, "postgres");
  if (!(await canConnect(legacyUrl))) {
    throw new Error(
      `The embedded database in ${dir} refuses the password in ${path.join(dir, "arbor-secret.json")}` +
        `${secret ? "" : " (the file is missing)"}. Restore that file, or remove the folder to start with an empty database.`,
    );
  }
  const kept = secret ?? (await writeSecret(dir, generateSecret()));
  const client = new pg.Client({ connectionString: legacyUrl });
  await client.connect();
  try {
    await client.query(`alter role ${pg.escapeIdentifier(SUPERUSER)} with password ${client.escapeLiteral(kept.superuserPassword)}`);
  } finally {
    await client.end();
  }
  return kept;
}
