/**
 * The one-line header of a tool call in the chat (ui.md "Chat"): the tool's name and its telling
 * argument, as a call reads — `read(src/a.ts)`, `Bash(npm test)`, `Task(Explore codebase)` —
 * whatever agent wrote the session (pi, Claude Code, Codex, …); the whole arguments are shown on
 * demand. Paths inside the session's folder are shown relative to it. Pure: no DOM, no network.
 */
import type { ToolCall } from "@/lib/session/types";

/** Longest argument shown in a header; the rest is behind "Arguments". */
export const HEADER_ARG_CHARS = 80;

type Args = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

function relative(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return path.startsWith(base) ? path.slice(base.length) || "." : path;
}

function commandOf(args: Args): string | undefined {
  const c = args.command ?? args.cmd;
  if (Array.isArray(c)) {
    const parts = c.filter((p): p is string => typeof p === "string");
    // Codex runs `bash -lc "<script>"`: the script is the command.
    const script = parts.length === 3 && /^(ba|z)?sh$/.test(parts[0]!.split("/").at(-1)!) && parts[1] === "-lc" ? parts[2] : undefined;
    return script ?? parts.join(" ");
  }
  return str(c);
}

function pathOf(args: Args, cwd: string | undefined): string | undefined {
  const p = str(args.path) ?? str(args.file_path) ?? str(args.notebook_path) ?? str(args.filePath);
  return p === undefined ? undefined : relative(p, cwd);
}

/** The files an apply_patch body names (`*** Update File: a.ts`). */
function patchFiles(args: Args, cwd: string | undefined): string | undefined {
  const body = str(args.input) ?? str(args.patch);
  if (!body) return undefined;
  const files = [...body.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => relative(m[1]!.trim(), cwd));
  return files.length ? files.join(", ") : undefined;
}

/** pi's read range, as the tree rows write it (session-engine.md §16.2): `:start-end`, `:start`. */
function lineRange(args: Args): string {
  const offset = typeof args.offset === "number" ? args.offset : undefined;
  const limit = typeof args.limit === "number" ? args.limit : undefined;
  if (offset === undefined && limit === undefined) return "";
  const start = offset ?? 1;
  return limit === undefined ? `:${start}` : `:${start}-${start + limit - 1}`;
}

function argumentOf(name: string, args: Args, cwd: string | undefined): string {
  const n = name.toLowerCase();
  if (/^(bash|shell|exec_command|local_shell|run_command|execute)$/.test(n)) return commandOf(args) ?? "";
  if (/^(grep|glob|find|search|rg)$/.test(n)) {
    const pattern = str(args.pattern) ?? str(args.query) ?? "";
    const where = pathOf(args, cwd);
    return where ? `${pattern} in ${where}` : pattern;
  }
  if (n === "apply_patch") return patchFiles(args, cwd) ?? "";
  if (n === "askuserquestion" && Array.isArray(args.questions)) {
    const q = args.questions[0] as Args | undefined;
    return str(q?.question) ?? "";
  }
  if (/^(task|agent)$/.test(n)) return str(args.description) ?? str(args.subagent_type) ?? "";
  if (/^(todowrite|todo_write|update_plan)$/.test(n)) {
    const list = Array.isArray(args.todos) ? args.todos : Array.isArray(args.plan) ? args.plan : undefined;
    return list ? `${list.length} ${list.length === 1 ? "item" : "items"}` : "";
  }
  const path = pathOf(args, cwd);
  if (path !== undefined) return n === "read" ? path + lineRange(args) : path;
  const url = str(args.url) ?? str(args.query) ?? str(args.prompt) ?? str(args.description);
  if (url !== undefined) return url;
  const first = Object.values(args).find((v) => (typeof v === "string" && v.trim() !== "") || typeof v === "number");
  return first === undefined ? "" : String(first);
}

/** `name(argument)`, the argument on one line and clipped to HEADER_ARG_CHARS. */
export function toolHeader(call: Pick<ToolCall, "name" | "arguments">, cwd?: string): string {
  const args: Args = call.arguments && typeof call.arguments === "object" ? (call.arguments as Args) : {};
  const arg = argumentOf(call.name, args, cwd).replace(/\s+/g, " ").trim();
  const shown = arg.length > HEADER_ARG_CHARS ? `${arg.slice(0, HEADER_ARG_CHARS - 1)}…` : arg;
  return `${call.name}(${shown})`;
}
