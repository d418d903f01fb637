/**
 * File-operation tracking for summaries (session-engine.md §10).
 * Pure: no network, disk or database access. Paths are taken from tool-call arguments only;
 * nothing here touches the file system.
 */
import type { AgentMessage } from "@/lib/session/types";

export interface FileOperations {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

export interface FileLists {
  readFiles: string[];
  modifiedFiles: string[];
}

export function createFileOps(): FileOperations {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

/** Which set each tracked tool feeds; every other tool is ignored (session-engine.md §10). */
const TOOL_TARGET: Record<string, keyof FileOperations> = { read: "read", write: "written", edit: "edited" };

/** Records the `path` argument of read/write/edit tool calls made by an assistant message. */
export function extractFileOpsFromMessage(message: AgentMessage, ops: FileOperations): void {
  if (message.role !== "assistant" || !Array.isArray(message.content)) return;
  for (const block of message.content) {
    if (block.type !== "toolCall") continue;
    const target = Object.hasOwn(TOOL_TARGET, block.name) ? TOOL_TARGET[block.name] : undefined;
    const path = block.arguments?.path;
    if (target && typeof path === "string" && path !== "") ops[target].add(path);
  }
}

/** A file both read and modified is listed once, as modified (session-engine.md §10). Default sort: UTF-16 order. */
export function computeFileLists(ops: FileOperations): FileLists {
  const modified = new Set([...ops.edited, ...ops.written]);
  const readFiles = [...ops.read].filter((f) => !modified.has(f)).sort();
  const modifiedFiles = [...modified].sort();
  return { readFiles, modifiedFiles };
}

/**
 * The block appended to a summary, in pi's format (session-engine.md §10, §18.1): empty sections are left
 * out, paths are joined with real newlines, and the block starts with a blank line.
 */
export function formatFileOperations(readFiles: string[], modifiedFiles: string[]): string {
  const sections: string[] = [];
  if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length > 0) sections.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  return sections.length === 0 ? "" : `\n\n${sections.join("\n\n")}`;
}

/** Seeds `ops` from stored `details = { readFiles, modifiedFiles }`; non-arrays and non-strings are skipped. */
export function addFileListDetails(details: unknown, ops: FileOperations): void {
  if (typeof details !== "object" || details === null) return;
  const { readFiles, modifiedFiles } = details as { readFiles?: unknown; modifiedFiles?: unknown };
  if (Array.isArray(readFiles)) for (const f of readFiles) if (typeof f === "string") ops.read.add(f);
  if (Array.isArray(modifiedFiles)) for (const f of modifiedFiles) if (typeof f === "string") ops.edited.add(f);
}
