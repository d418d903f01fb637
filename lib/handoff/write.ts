import "server-only";
/**
 * Writing a prepared hand-off into its agent's folder (docs/formats.md "Hand-off"), after the
 * user confirmed the exact path: only when that path is the one prepared, inside the agent
 * folder Arbor may write to (prepare.ts), never over an existing file, and never through a
 * link that leads out of the agent folder.
 */
import { mkdir, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { isInside } from "@/lib/tools/folder-in-roots";
import type { PreparedHandoff } from "./prepare";

export type WriteResult = { ok: true; path: string } | { ok: false; code: "mismatch" | "forbidden" | "exists"; error: string };

export async function writeHandoffFile(prepared: PreparedHandoff, confirmedPath: string): Promise<WriteResult> {
  const { target, out } = prepared;
  if (confirmedPath !== target.path) return { ok: false, code: "mismatch", error: `The confirmed path ${confirmedPath} is not the file this hand-off writes (${target.path}): show the path again and confirm it` };
  if (!target.writable || !target.realFolder) return { ok: false, code: "forbidden", error: `Not written: ${target.why ?? "the agent folder may not be written to"}` };
  const folder = path.join(target.realFolder, ...out.folder.split("/"));
  await mkdir(folder, { recursive: true });
  // A project or date folder that is a link out of the agent folder is refused.
  const realFolder = await realpath(folder);
  if (!isInside(target.realFolder, realFolder)) return { ok: false, code: "forbidden", error: `Not written: ${folder} leads out of ${target.agentFolder}` };
  const file = path.join(realFolder, out.fileName);
  try {
    await writeFile(file, out.text, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return { ok: false, code: "exists", error: `Not written: ${target.path} already exists (a hand-off never replaces a file)` };
    throw error;
  }
  return { ok: true, path: target.path };
}
