/**
 * Workspace roots and path confinement — the security boundary of lib/tools.
 *
 * `resolveWorkspace` picks the folder a session's tools work in: `<ARBOR_WORKSPACES>/<sessionId>`
 * (created on first use), or an existing project folder whose real path lies inside one of
 * `ARBOR_ALLOWED_ROOTS`. It returns an absolute real path.
 *
 * `safePath(root, userPath)` is the only way a model-supplied path becomes a file-system path.
 * It refuses NUL bytes, overlong paths, absolute paths, `~` paths and `..` escapes, then resolves
 * symbolic links: the deepest existing ancestor (and the target, when it exists) must have a real
 * path inside the root's real path, and a broken link is refused (writing through it could create
 * a file anywhere). The result is that real path plus the not-yet-existing tail, so callers never
 * follow a link afterwards. Every refusal is a ToolError naming the path and the reason.
 */
import "server-only";
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { dataDir } from "@/lib/data-dir";
import { env } from "@/lib/env";
import { quotePath, ToolError } from "./errors";

export const MAX_PATH_BYTES = 4096;
export const MAX_COMPONENT_BYTES = 255;

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** True when `child` is `parent` or lies below it (both absolute and normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export interface WorkspaceConfig {
  /** Folder holding per-session workspaces; default ARBOR_WORKSPACES or `<data dir>/workspaces`. */
  workspacesDir?: string;
  /** Roots a projectDir must lie in; default ARBOR_ALLOWED_ROOTS split on ":". */
  allowedRoots?: string[];
}

export function defaultWorkspacesDir(): string {
  return path.resolve(env.ARBOR_WORKSPACES ?? path.join(dataDir(), "workspaces"));
}

export function defaultAllowedRoots(): string[] {
  return (env.ARBOR_ALLOWED_ROOTS ?? "")
    .split(":")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

async function realDir(p: string, what: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(p);
  } catch {
    throw new ToolError(`${what} ${quotePath(p)} does not exist`, "not_found");
  }
  const st = await lstat(real);
  if (!st.isDirectory()) throw new ToolError(`${what} ${quotePath(p)} is not a folder`);
  return real;
}

/**
 * The absolute real path of a session's workspace.
 * @throws ToolError for an unsafe sessionId, or a projectDir outside every allowed root.
 */
export async function resolveWorkspace(
  input: { sessionId: string; projectDir?: string },
  config: WorkspaceConfig = {},
): Promise<string> {
  if (input.projectDir !== undefined) {
    const roots = config.allowedRoots ?? defaultAllowedRoots();
    if (roots.length === 0) {
      throw new ToolError(`Project folder ${quotePath(input.projectDir)} refused: ARBOR_ALLOWED_ROOTS is not set`);
    }
    if (!path.isAbsolute(input.projectDir)) {
      throw new ToolError(`Project folder ${quotePath(input.projectDir)} must be an absolute path`);
    }
    const real = await realDir(input.projectDir, "Project folder");
    for (const root of roots) {
      const realRoot = await realpath(path.resolve(root)).catch(() => undefined);
      if (realRoot && isInside(realRoot, real)) return real;
    }
    throw new ToolError(
      `Project folder ${quotePath(input.projectDir)} is not inside an allowed root (${roots.join(", ")})`,
    );
  }
  if (!SESSION_ID.test(input.sessionId)) {
    throw new ToolError(
      `Session id ${quotePath(input.sessionId)} is not a safe folder name (letters, digits, ".", "_", "-"; at most 128)`,
    );
  }
  // Synchronous on purpose: this runs before every turn's model request, the workspaces folder
  // is local (the data dir), and five calls take tens of µs here, where five trips through
  // libuv's thread pool took milliseconds on a busy machine.
  const base = path.resolve(config.workspacesDir ?? defaultWorkspacesDir());
  mkdirSync(base, { recursive: true });
  const dir = path.join(base, input.sessionId);
  mkdirSync(dir, { recursive: true });
  const realBase = realpathSync(base);
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    throw new ToolError(`Workspace ${quotePath(dir)} does not exist`, "not_found");
  }
  if (!lstatSync(real).isDirectory()) throw new ToolError(`Workspace ${quotePath(dir)} is not a folder`);
  // A pre-existing symlink named like the session must not redirect the workspace elsewhere.
  if (!isInside(realBase, real) || real === realBase) {
    throw new ToolError(`Workspace for session ${quotePath(input.sessionId)} resolves outside ${quotePath(base)}`);
  }
  return real;
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

/** Lexical checks that need no disk access. */
function checkShape(userPath: string): void {
  const p = quotePath(userPath);
  if (userPath.includes("\0")) throw new ToolError(`Path ${p} contains a NUL byte`);
  if (Buffer.byteLength(userPath, "utf8") > MAX_PATH_BYTES) {
    throw new ToolError(`Path ${p} is too long (over ${MAX_PATH_BYTES} bytes)`);
  }
  const parts = userPath.split(/[/\\]/);
  if (parts.some((c) => Buffer.byteLength(c, "utf8") > MAX_COMPONENT_BYTES)) {
    throw new ToolError(`Path ${p} has a name longer than ${MAX_COMPONENT_BYTES} bytes`);
  }
  if (path.isAbsolute(userPath)) {
    throw new ToolError(`Path ${p} is absolute; use a path relative to the workspace`);
  }
  // "~" means a home folder to a shell and to most models; never treat it as a relative name.
  if (parts[0]?.startsWith("~")) {
    throw new ToolError(`Path ${p} is outside the workspace ("~" paths are not allowed)`);
  }
}

/**
 * Resolves a model-supplied relative path inside `workspaceRoot` (see the header for the rules).
 * @returns the absolute path to use; its existing part is a real path (no symlinks).
 * @throws ToolError when the path is malformed or would reach outside the workspace.
 */
export async function safePath(workspaceRoot: string, userPath: string): Promise<string> {
  checkShape(userPath);
  const outside = () => new ToolError(`Path ${quotePath(userPath)} is outside the workspace`);
  const rootReal = await realpath(workspaceRoot);
  const target = path.resolve(rootReal, userPath);
  if (!isInside(rootReal, target)) throw outside();

  // Walk up from the target to the deepest ancestor that exists, remembering the missing tail.
  const tail: string[] = [];
  let cur = target;
  for (;;) {
    try {
      const real = await realpath(cur);
      if (!isInside(rootReal, real)) {
        throw new ToolError(`Path ${quotePath(userPath)} is outside the workspace (through a symbolic link)`);
      }
      return tail.length === 0 ? real : path.join(real, ...tail.reverse());
    } catch (error) {
      if (error instanceof ToolError) throw error;
      const code = errnoCode(error);
      if (code === "ELOOP") throw new ToolError(`Path ${quotePath(userPath)} has a symbolic-link loop`);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
    // realpath failed: either nothing is there, or a symlink whose target is missing.
    const st = await lstat(cur).catch(() => undefined);
    if (st?.isSymbolicLink()) {
      throw new ToolError(`Path ${quotePath(userPath)} goes through a broken symbolic link`);
    }
    if (cur === rootReal) throw outside(); // the root vanished; refuse rather than guess
    tail.push(path.basename(cur));
    cur = path.dirname(cur);
  }
}

/** The workspace-relative POSIX form of an absolute path from safePath ("." for the root). */
export function toRelative(rootReal: string, abs: string): string {
  const rel = path.relative(rootReal, abs);
  return rel === "" ? "." : rel.split(path.sep).join("/");
}
