/**
 * "Copy resume command" (ui.md "The session workspace"): the command that goes on with this session
 * in the agent it came from — `claude --resume <id>` (in the session's folder: Claude Code keeps
 * sessions per project), `codex resume <id>`, `pi --session <file>`. Pure.
 *
 * Which agent: the header's `sourceFormat` / its format block (docs/formats.md); a header with
 * neither is pi's own. A Claude Code subagent cannot be resumed on its own: none. Formats with no
 * resume command here: none.
 */
import type { SessionMeta } from "@/lib/types/session";

/** POSIX shell quoting: bare when safe, else single quotes. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === "object" ? (v as Record<string, unknown>) : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

export function resumeCommand(meta: Pick<SessionMeta, "id" | "header" | "cwd" | "sourceFileName">): { agent: string; command: string } | null {
  const header = meta.header as unknown as Record<string, unknown>;
  const claude = obj(header.claudeCode);
  const codex = obj(header.codex);
  const format = str(header.sourceFormat) ?? (claude ? "claude-code" : codex ? "codex" : "pi");
  if (format === "claude-code") {
    if (str(claude?.agentId)) return null;
    const id = str(claude?.sessionId) ?? meta.id;
    const inFolder = meta.cwd ? `cd ${shellQuote(meta.cwd)} && ` : "";
    return { agent: "Claude Code", command: `${inFolder}claude --resume ${shellQuote(id)}` };
  }
  if (format === "codex") return { agent: "Codex", command: `codex resume ${shellQuote(str(codex?.session_id) ?? meta.id)}` };
  if (format === "pi") return { agent: "pi", command: `pi --session ${shellQuote(meta.sourceFileName ?? `${meta.id}.jsonl`)}` };
  return null;
}
