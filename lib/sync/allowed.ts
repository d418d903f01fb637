import "server-only";
/**
 * Which folders the "Sync folder" page may sync: the rule of the project-folder setting
 * (lib/tools/folder-in-roots.ts, roots from lib/chat/runtime-config.ts): an absolute path to an
 * existing folder whose real path (symlinks resolved) lies inside one of ARBOR_ALLOWED_ROOTS or of
 * the folders the user allowed on the first start (the `allowed_roots` rows, lib/db); none when
 * there are neither. The roots are checked before anything about the path is told, so a refusal
 * says nothing about paths outside them. Returns the real path, or throws SyncFolderError saying
 * why. (The CLI is not limited: it runs as the user, who can read the folder anyway.)
 */
import path from "node:path";
import { allowedRootsSetting } from "@/lib/chat/runtime-config";
import { listAllowedRoots } from "@/lib/db";
import { folderInRoots, realRoots } from "@/lib/tools/folder-in-roots";
import { SyncFolderError } from "./sync-folders";

/** The real paths of the allowed roots that exist: every synced file must really lie in one (sync-file.ts). */
export async function allowedRealRoots(roots?: readonly string[]): Promise<string[]> {
  return realRoots(roots ?? (await syncRoots()));
}

/** ARBOR_ALLOWED_ROOTS and the folders the user allowed. */
export async function syncRoots(): Promise<string[]> {
  return [...allowedRootsSetting(), ...(await listAllowedRoots())];
}

export async function allowedSyncFolder(folder: string, given?: readonly string[]): Promise<string> {
  const roots = given ?? (await syncRoots());
  if (roots.length === 0) throw new SyncFolderError(`Folder ${folder} refused: ARBOR_ALLOWED_ROOTS is not set and no folder was allowed on the home page, so no folder may be synced from the web page`);
  if (!path.isAbsolute(folder)) throw new SyncFolderError(`Folder ${folder} must be an absolute path`);
  const judged = await folderInRoots(folder, roots);
  if (judged.ok) return judged.real;
  if (judged.why === "missing") throw new SyncFolderError(`Folder ${folder} does not exist`);
  if (judged.why === "not_folder") throw new SyncFolderError(`${folder} is not a folder`);
  throw new SyncFolderError(`Folder ${folder} is not inside an allowed root (${roots.join(", ")})`);
}
