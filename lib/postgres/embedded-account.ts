import "server-only";
/**
 * The OS account the embedded PostgreSQL runs as.
 *
 * Contract:
 * - Not root: the server runs as this process's own user (`undefined` here: no switch).
 * - Root: PostgreSQL refuses to run as root, so it runs as the `postgres` account, created (a system
 *   account without a home or a login shell) when the machine has none.
 * - `canReach(account, path)` asks the kernel, not the mode bits: it runs `test` as that account
 *   with exactly the ids the server will get (Node's uid/gid switch drops supplementary groups), so
 *   it sees what PostgreSQL will see, ACLs and 0700 parents included.
 */
import { execFileSync, spawnSync } from "node:child_process";

export interface Account {
  name: string;
  uid: number;
  gid: number;
}

export const SERVER_ACCOUNT = "postgres";

function ids(name: string): Account | undefined {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function createAccount(name: string): void {
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  try {
    if (spawnSync("getent", ["group", name]).status !== 0) run("groupadd", ["--system", name]);
    run("useradd", ["--system", "--gid", name, "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name]);
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
    throw new Error(
      `The embedded database cannot run as root and there is no "${name}" account to run it as; creating one failed (${detail}). ` +
        `Create it (useradd --system ${name}), run Arbor as an ordinary user, or set DATABASE_URL to a server of your own.`,
    );
  }
}

/** The account the server runs as: undefined when this process is not root. */
export function serverAccount(): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const found = ids(SERVER_ACCOUNT);
  if (found) return found;
  createAccount(SERVER_ACCOUNT);
  const created = ids(SERVER_ACCOUNT);
  if (!created) throw new Error(`The "${SERVER_ACCOUNT}" account was created but "id ${SERVER_ACCOUNT}" does not find it.`);
  return created;
}

/**
 * Whether `account` (this process's own user when undefined) passes `test <flag> path`:
 * `-x` on a program or a folder (search), `-w` on a folder it must write.
 */
export function canReach(account: Account | undefined, path: string, flag: "-x" | "-w" | "-r" = "-x"): boolean {
  const opts = account ? { uid: account.uid, gid: account.gid } : {};
  return spawnSync("test", [flag, path], { ...opts, stdio: "ignore" }).status === 0;
}

/** The first folder on the way to `path` that `account` cannot enter, for error messages. */
export function firstBlockedParent(account: Account | undefined, path: string): string | undefined {
  const parts = path.split("/").filter(Boolean);
  let dir = "";
  for (const part of parts.slice(0, -1)) {
    dir += `/${part}`;
    if (!canReach(account, dir, "-x")) return dir;
  }
  return undefined;
}
