/**
 * Test helpers for lib/tools: a real temporary workspace next to a real "outside" folder holding
 * a secret, and a shorthand to call a tool through the registry.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ToolLimits } from "@/lib/tools/limits";
import { createWorkspaceTools } from "@/lib/tools/registry";

export const SECRET = "TOP-SECRET-OUTSIDE-CONTENT";

export interface Sandbox {
  /** Real path of the temp folder holding both the workspace and the outside folder. */
  base: string;
  /** The workspace root (real path). */
  root: string;
  /** A folder outside the workspace with secret.txt inside. */
  outside: string;
  cleanup(): Promise<void>;
}

export async function makeSandbox(): Promise<Sandbox> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), "arbor-tools-")));
  const root = path.join(base, "ws");
  const outside = path.join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), `${SECRET}\n`);
  return { base, root, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** Writes files relative to `root`, creating folders. */
export async function put(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
}

export interface CallResult {
  text: string;
  isError: boolean;
  details: unknown;
}

let callCounter = 0;

/** Calls one tool through createWorkspaceTools, as the agent loop would. */
export async function callTool(
  root: string,
  name: string,
  args: Record<string, unknown>,
  opts: { limits?: Partial<ToolLimits>; signal?: AbortSignal } = {},
): Promise<CallResult> {
  const tools = createWorkspaceTools({ root, limits: opts.limits });
  const out = await tools.execute(
    { type: "toolCall", id: `call-${++callCounter}`, name, arguments: args },
    opts.signal ?? new AbortController().signal,
  );
  const content = typeof out.content === "string" ? [{ type: "text" as const, text: out.content }] : out.content;
  const text = content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join("\n");
  return { text, isError: out.isError === true, details: out.details };
}
