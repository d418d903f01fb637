import "server-only";
/**
 * Which folders the "Sync folder" page may sync: the rule of the project-folder setting
 * (lib/tools/workspace.ts resolveWorkspace, roots from lib/chat/runtime-config.ts): an absolute path to an existing folder whose real
 * path (symlinks resolved) lies inside one of ARBOR_ALLOWED_ROOTS; none when it is not set.
 * Returns the real path, or throws SyncFolderError saying why. (The CLI is not limited: it runs
 * as the user, who can read the folder anyway.)
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { allowedRootsSetting } from "@/lib/chat/runtime-config";
import { isInside } from "@/lib/tools/workspace";
import { realFolder, SyncFolderError } from "./sync-folders";

/** The real paths of the allowed roots that exist: every synced file must really lie in one (sync-file.ts). */
export async function allowedRealRoots(roots: readonly string[] = allowedRootsSetting()): Promise<string[]> {
  const real: string[] = [];
  for (const root of roots) {
    const r = await realpath(path.resolve(root)).catch(() => undefined);
    if (r) real.push(r);
  }
  return real;
}

export async function allowedSyncFolder(folder: string, roots: readonly string[] = allowedRootsSetting()): Promise<string> {
  if (roots.length === 0) throw new SyncFolderError(`Folder ${folder} refused: ARBOR_ALLOWED_ROOTS is not set, so no folder may be synced from the web page`);
  if (!path.isAbsolute(folder)) throw new SyncFolderError(`Folder ${folder} must be an absolute path`);
  const real = await realFolder(folder);
  if ((await allowedRealRoots(roots)).some((root) => isInside(root, real))) return real;
  throw new SyncFolderError(`Folder ${folder} is not inside an allowed root (${roots.join(", ")})`);
}
