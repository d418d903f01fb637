import "server-only";
/**
 * Which folders the "Sync folder" page may sync: the rule of the project-folder setting
 * (lib/tools/folder-in-roots.ts, roots from lib/chat/runtime-config.ts): an absolute path to an
 * existing folder whose real path (symlinks resolved) lies inside one of ARBOR_ALLOWED_ROOTS;
 * none when it is not set. The roots are checked before anything about the path is told, so a
 * refusal says nothing about paths outside them. Returns the real path, or throws
 * SyncFolderError saying why. (The CLI is not limited: it runs as the user, who can read the
 * folder anyway.)
 */
import path from "node:path";
import { allowedRootsSetting } from "@/lib/chat/runtime-config";
import { folderInRoots, realRoots } from "@/lib/tools/folder-in-roots";
import { SyncFolderError } from "./sync-folders";

/** The real paths of the allowed roots that exist: every synced file must really lie in one (sync-file.ts). */
export function allowedRealRoots(roots: readonly string[] = allowedRootsSetting()): Promise<string[]> {
  return realRoots(roots);
}

export async function allowedSyncFolder(folder: string, roots: readonly string[] = allowedRootsSetting()): Promise<string> {
  if (roots.length === 0) throw new SyncFolderError(`Folder ${folder} refused: ARBOR_ALLOWED_ROOTS is not set, so no folder may be synced from the web page`);
  if (!path.isAbsolute(folder)) throw new SyncFolderError(`Folder ${folder} must be an absolute path`);
  const judged = await folderInRoots(folder, roots);
  if (judged.ok) return judged.real;
  if (judged.why === "missing") throw new SyncFolderError(`Folder ${folder} does not exist`);
  if (judged.why === "not_folder") throw new SyncFolderError(`${folder} is not a folder`);
  throw new SyncFolderError(`Folder ${folder} is not inside an allowed root (${roots.join(", ")})`);
}
