/**
 * Workspace file access for the file panel and for upload/download routes (not for the model).
 * Every path goes through safePath, so the same confinement rules as the tools apply.
 * - listWorkspace: the tree, breadth-first so a capped listing still shows the top levels;
 *   symlinks are listed (flagged) but not followed, node_modules/.git are listed but not entered.
 * - writeUpload: streams into a temporary file beside the target (O_EXCL|O_NOFOLLOW), enforcing
 *   `maxBytes` while streaming, then renames it into place; a failed or oversized upload leaves
 *   nothing behind.
 * - readForDownload: opens with O_NOFOLLOW, checks the opened handle is a regular file, and
 *   streams it as a web ReadableStream that closes the handle when done or cancelled.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, open, realpath, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { detectMimeType } from "./content";
import { quotePath, ToolError } from "./errors";
import { asToolError, statOrUndefined } from "./file-io";
import { formatBytes } from "@/lib/text/byte-size";
import type { WorkspaceListing, WorkspaceNode } from "@/lib/types/workspace-files";
import { walk } from "./walk";
import { safePath, toRelative } from "./workspace";

/** The workspace tree, at most `maxEntries` nodes. */
export async function listWorkspace(
  root: string,
  opts: { maxEntries: number; signal?: AbortSignal },
): Promise<WorkspaceListing> {
  const rootReal = await realpath(root);
  const nodes: WorkspaceNode[] = [];
  const folders = new Map<string, WorkspaceNode[]>([["", nodes]]);
  let count = 0;
  const { capped } = await walk(
    rootReal,
    { maxEntries: opts.maxEntries, signal: opts.signal ?? new AbortController().signal },
    async (e) => {
      const st = await lstat(e.abs).catch(() => undefined);
      const node: WorkspaceNode = { name: e.name, path: e.rel, kind: e.kind };
      if (e.kind === "file" && st) node.size = st.size;
      if (st) node.modifiedAt = Math.round(st.mtimeMs);
      if (e.skipped) node.skipped = true;
      if (e.kind === "directory" && !e.skipped) {
        node.children = [];
        folders.set(e.rel, node.children);
      }
      const parentRel = e.rel.includes("/") ? e.rel.slice(0, e.rel.lastIndexOf("/")) : "";
      folders.get(parentRel)?.push(node);
      count++;
      return undefined;
    },
  );
  return { nodes, count, truncated: capped };
}

export type UploadBody = Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

async function* chunksOf(body: UploadBody): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    yield body;
    return;
  }
  if (typeof (body as ReadableStream<Uint8Array>).getReader === "function") {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
  yield* body as AsyncIterable<Uint8Array>;
}

/**
 * Stores an upload at `relPath`, replacing an existing file and creating parent folders.
 * @throws ToolError for an unsafe path, a folder in the way, or more than `maxBytes` bytes
 */
export async function writeUpload(
  root: string,
  relPath: string,
  body: UploadBody,
  opts: { maxBytes: number; signal?: AbortSignal },
): Promise<{ path: string; size: number }> {
  const rootReal = await realpath(root);
  const abs = await safePath(rootReal, relPath);
  if (abs === rootReal) throw new ToolError(`Path ${quotePath(relPath)} is the workspace folder itself`);
  const existing = await statOrUndefined(abs, relPath);
  if (existing && !existing.isFile()) throw new ToolError(`Path ${quotePath(relPath)} exists and is not a regular file`);
  try {
    await mkdir(path.dirname(abs), { recursive: true });
  } catch (error) {
    throw asToolError(error, relPath);
  }

  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.upload-${randomBytes(6).toString("hex")}`);
  const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  let size = 0;
  let done = false;
  try {
    for await (const chunk of chunksOf(body)) {
      opts.signal?.throwIfAborted();
      size += chunk.byteLength;
      if (size > opts.maxBytes) {
        throw new ToolError(`Upload ${quotePath(relPath)} is over the ${formatBytes(opts.maxBytes)} limit`, "too_large");
      }
      await handle.write(chunk);
    }
    await handle.close();
    await rename(tmp, abs);
    done = true;
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw asToolError(error, relPath);
  } finally {
    if (!done) {
      await handle.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
    }
  }
  return { path: toRelative(rootReal, abs), size };
}

export interface Download {
  stream: ReadableStream<Uint8Array>;
  size: number;
  mimeType: string;
  /** The file's base name, for Content-Disposition. */
  name: string;
}

const CHUNK = 64 * 1024;

/**
 * Opens a workspace file for download. The caller must consume or cancel `stream` (either closes
 * the file).
 * @throws ToolError for an unsafe path, a missing file or a folder
 */
export async function readForDownload(root: string, relPath: string): Promise<Download> {
  const abs = await safePath(root, relPath);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw asToolError(error, relPath);
  }
  let st: Awaited<ReturnType<typeof handle.stat>>;
  const head = new Uint8Array(8192);
  let headLength: number;
  try {
    st = await handle.stat();
    if (!st.isFile()) throw new ToolError(`Path ${quotePath(relPath)} is not a regular file`);
    headLength = (await handle.read(head, 0, head.length, 0)).bytesRead;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error instanceof ToolError ? error : asToolError(error, relPath);
  }
  const sniffed = head.subarray(0, headLength);
  const text = !sniffed.includes(0);
  let position = 0;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const buf = new Uint8Array(CHUNK);
        const { bytesRead } = await handle.read(buf, 0, CHUNK, position);
        if (bytesRead === 0) {
          await close();
          controller.close();
          return;
        }
        position += bytesRead;
        controller.enqueue(buf.subarray(0, bytesRead));
      } catch (error) {
        await close().catch(() => undefined);
        controller.error(error);
      }
    },
    async cancel() {
      await close();
    },
  });
  return { stream, size: st.size, mimeType: detectMimeType(abs, sniffed, text), name: path.basename(abs) };
}
