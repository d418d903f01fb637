import "server-only";
/**
 * "Continue in…" on the server (docs/formats.md "Hand-off"): the path to an entry of a stored
 * session written in an agent's format (lib/formats/handoff/handoff.ts), with its secrets masked unless
 * the user asked for the originals (docs/secrets.md), and where that agent keeps such a file:
 * `$CLAUDE_CONFIG_DIR` or `~/.claude` `/projects/<project>/<uuid>.jsonl`, `$CODEX_HOME` or
 * `~/.codex` `/sessions/YYYY/MM/DD/rollout-….jsonl`, `$PI_CODING_AGENT_DIR` or `~/.pi/agent`
 * `/sessions/--<cwd>--/<time>_<uuid>.jsonl` (the folders lib/sync/discover.ts looks in).
 *
 * The file may be written only into an agent folder that lies inside the folders Arbor may
 * touch (ARBOR_ALLOWED_ROOTS and the folders allowed on the first start, the rule of the
 * "Sync folder" page); `target.writable` says so, or why not, before the user is asked.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { readLiveSession } from "@/lib/db";
import { type HandoffFormat, type HandoffOutput, writeHandoff } from "@/lib/formats/handoff/handoff";
import { loadPrompts } from "@/lib/llm/prompts";
import { maskSecrets, maskSecretsInText } from "@/lib/secrets";
import { syncRoots } from "@/lib/sync/allowed";
import { agentPlaces } from "@/lib/sync/discover";
import { folderInRoots } from "@/lib/tools/folder-in-roots";

const AGENT_OF: Record<HandoffFormat, "claude-code" | "codex" | "pi"> = { claude: "claude-code", codex: "codex", pi: "pi" };

export interface HandoffTarget {
  /** The agent's sessions folder. */
  agentFolder: string;
  /** The file the hand-off writes (absolute). */
  path: string;
  writable: boolean;
  /** Why it cannot be written here (download it instead). */
  why?: string;
  /** The agent folder's real path, when writable. */
  realFolder?: string;
}

export interface PreparedHandoff {
  out: HandoffOutput;
  /** The moment the file names (Codex's date folders, pi's file name): a confirmed write repeats it. */
  createdAt: string;
  entryId: string;
  target: HandoffTarget;
}

export interface HandoffRequest {
  sessionId: string;
  /** The chosen entry; the session's leaf when absent. */
  entryId?: string;
  format: HandoffFormat;
  includeSecrets: boolean;
  /** Repeats a preview (the id and moment shown to the user); fresh ones when absent. */
  newSessionId?: string;
  createdAt?: string;
}

/** Where `out` goes in its agent's folder, and whether Arbor may write there. */
export async function handoffTarget(out: HandoffOutput, env: Readonly<Record<string, string | undefined>> = process.env, home = os.homedir()): Promise<HandoffTarget> {
  const agentFolder = agentPlaces(env, home).find((p) => p.agent === AGENT_OF[out.format])!.path;
  const file = path.join(agentFolder, ...out.folder.split("/"), out.fileName);
  const roots = await syncRoots();
  const judged = roots.length === 0 ? ({ ok: false, why: "outside" } as const) : await folderInRoots(agentFolder, roots);
  if (judged.ok) return { agentFolder, path: file, writable: true, realFolder: judged.real };
  const why =
    judged.why === "missing"
      ? `${agentFolder} does not exist: is the agent installed here?`
      : `${agentFolder} is not inside a folder Arbor may write to (ARBOR_ALLOWED_ROOTS, or a folder allowed on the first start)`;
  return { agentFolder, path: file, writable: false, why };
}

/** The hand-off of `req`, or "unknown_session" / "unknown_entry". */
export async function prepareHandoff(req: HandoffRequest): Promise<PreparedHandoff | "unknown_session" | "unknown_entry"> {
  const view = await readLiveSession({ sessionId: req.sessionId });
  if (!view) return "unknown_session";
  const entryId = req.entryId ?? view.meta.leafId;
  if (!entryId || !view.tree.getEntry(entryId)) return "unknown_entry";
  const branch = view.tree.getBranch(entryId);
  const masked = req.includeSecrets ? branch : await maskSecrets(branch);
  const createdAt = req.createdAt ?? new Date().toISOString();
  const title = view.meta.title ?? undefined;
  const out = writeHandoff(req.format, {
    path: masked,
    cwd: view.meta.cwd,
    ...(title ? { title: req.includeSecrets ? title : await maskSecretsInText(title) } : {}),
    sourceSessionId: req.sessionId,
    sessionEntryCount: view.tree.getEntryCount(),
    prompts: loadPrompts(),
    sessionId: req.newSessionId ?? randomUUID(),
    newId: randomUUID,
    now: new Date(createdAt),
  });
  return { out, createdAt, entryId, target: await handoffTarget(out) };
}
