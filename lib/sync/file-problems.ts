/**
 * What went wrong with a file on disk while syncing it, in words a user can act on: the folder
 * changes under a running sync (an agent deletes or replaces files, a link loops, permissions
 * differ). The sync reports it for that file, with its path, and goes on with the others.
 */

const WORDS: Record<string, string> = {
  ENOENT: "the file was deleted before it could be read",
  EISDIR: "this is a folder now, not a session file",
  ENOTDIR: "a folder on its path was replaced by a file",
  ELOOP: "a symbolic link loop: the link leads back to itself, never to a file",
  EACCES: "permission denied: Arbor may not read it (check the file's and its folders' permissions)",
  EPERM: "permission denied: Arbor may not read it (check the file's and its folders' permissions)",
  EMFILE: "too many open files right now; the next sync tries again",
  EIO: "the disk reported a read error",
};

/** The words for a file-system error (by its errno code), or null when it is none of those. */
export function fileSystemProblem(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? (WORDS[code] ?? null) : null;
}
