/**
 * Low-level file access behind safePath. Paths handed in are already confined real paths; the
 * opens add O_NOFOLLOW so a symlink swapped in afterwards is refused rather than followed, and
 * O_NONBLOCK so a FIFO planted in a project folder cannot hang a read. Only regular files are
 * read or written.
 */
import { constants } from "node:fs";
import { lstat, mkdir, open } from "node:fs/promises";
import path from "node:path";
import { quotePath, ToolError, toolErrorFromFs } from "./errors";
import { formatBytes } from "@/lib/text/byte-size";

/** The ToolError for a file-system error, or the error itself when it is not one (throw the result). */
export function asToolError(error: unknown, userPath: string): unknown {
  return toolErrorFromFs(error, userPath) ?? error;
}

/** Stat without following a final symlink; undefined when nothing is there. */
export async function statOrUndefined(abs: string, userPath: string) {
  try {
    return await lstat(abs);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw asToolError(error, userPath);
  }
}

/**
 * Reads a whole regular file, refusing folders, special files and files over `maxBytes`.
 * @throws ToolError naming `userPath`
 */
export async function readRegularFile(
  abs: string,
  userPath: string,
  opts: { maxBytes: number; signal: AbortSignal },
): Promise<Buffer> {
  opts.signal.throwIfAborted();
  const st = await statOrUndefined(abs, userPath);
  if (!st) throw new ToolError(`File ${quotePath(userPath)} does not exist`, "not_found");
  if (st.isDirectory()) throw new ToolError(`Path ${quotePath(userPath)} is a folder; use ls to list it`);
  if (!st.isFile()) throw new ToolError(`Path ${quotePath(userPath)} is not a regular file`);
  if (st.size > opts.maxBytes) {
    throw new ToolError(
      `File ${quotePath(userPath)} is ${formatBytes(st.size)}, over the ${formatBytes(opts.maxBytes)} limit`,
    );
  }
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const fst = await handle.stat();
    if (!fst.isFile()) throw new ToolError(`Path ${quotePath(userPath)} is not a regular file`);
    if (fst.size > opts.maxBytes) throw new ToolError(`File ${quotePath(userPath)} grew over the size limit`);
    return await handle.readFile({ signal: opts.signal });
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw asToolError(error, userPath);
  } finally {
    await handle?.close();
  }
}

/**
 * Writes a regular file, creating missing parent folders (they are inside the workspace: abs
 * came from safePath). An existing folder or special file at `abs` is refused.
 * @returns whether the file was created
 */
export async function writeRegularFile(
  abs: string,
  userPath: string,
  data: string | Uint8Array,
  signal: AbortSignal,
): Promise<boolean> {
  signal.throwIfAborted();
  const st = await statOrUndefined(abs, userPath);
  if (st?.isDirectory()) throw new ToolError(`Path ${quotePath(userPath)} is a folder, not a file`);
  if (st && !st.isFile()) throw new ToolError(`Path ${quotePath(userPath)} is not a regular file`);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    await mkdir(path.dirname(abs), { recursive: true });
    signal.throwIfAborted();
    handle = await open(abs, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
    await handle.writeFile(data, { signal });
    return st === undefined;
  } catch (error) {
    throw asToolError(error, userPath);
  } finally {
    await handle?.close();
  }
}
