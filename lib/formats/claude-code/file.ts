/**
 * A Claude Code file → its main thread, and each sidechain run written inline as a session of
 * its own (FormatMapper, types.ts: `side` items).
 * Pure: no network, disk or database access.
 *
 * Contract (docs/formats.md "Subagents"):
 * - The first user / assistant record says what the file is. If it is a sidechain record
 *   (`isSidechain: true`), the file is a subagent's own file (`agent-*.jsonl`,
 *   `subagents/agent-*.jsonl`): every record is mapped as one session, whose prompt is the task
 *   (claude-code/map.ts gives it the id `<sessionId>.agent-<agentId>`).
 * - Otherwise it is a main session file. Claude Code 1.0.x wrote a Task's subagent turns into it
 *   (`isSidechain: true` records, each run starting at a root user record holding the Task's
 *   prompt). Each such run becomes its own session, id `<sessionId>.sidechain-<root uuid>` (or
 *   `<sessionId>.agent-<agentId>` when the records carry an `agentId`), with `parentSession` =
 *   the main session; the main thread holds only the main thread. A record joins the run its
 *   `parentUuid` belongs to; a sidechain record under no run starts one.
 * - The Task call whose `input.prompt` is the run's first prompt is linked to it: its tool result
 *   carries `subagentSessionId`, as for subagent files. A run no call matches is still its own
 *   session, without a link.
 * Memory: one uuid per sidechain record, one prompt per open Task call.
 */
import { ClaudeCodeMapper } from "./map";
import { subagentSessionId } from "./records";
import { type FormatMapper, type FormatNote, isObject, type JsonObject, type MappedItem, str } from "@/lib/formats/types";

/** Names Claude Code has given its subagent tool. */
const TASK_TOOLS = new Set(["Task", "Agent"]);

export function createClaudeCodeMapper(): FormatMapper {
  return new ClaudeCodeFileMapper();
}

/** The text of a user record's message: a string, or its text blocks joined. */
function promptText(record: JsonObject): string | undefined {
  const message = record.message;
  if (!isObject(message)) return undefined;
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((b): b is JsonObject => isObject(b) && b.type === "text" && typeof b.text === "string").map((b) => b.text as string);
  return texts.length > 0 ? texts.join("\n") : undefined;
}

class ClaudeCodeFileMapper implements FormatMapper {
  readonly format = "claude-code" as const;
  /** toolUseId → sidechain session, filled as runs start; read by the main thread's mapper. */
  private readonly links = new Map<string, string>();
  private readonly main = new ClaudeCodeMapper({ links: this.links });
  /** Undecided until the first user / assistant record. */
  private subagentFile: boolean | undefined;
  private readonly runs = new Map<string, ClaudeCodeMapper>();
  private readonly runOfUuid = new Map<string, string>();
  /** Prompts of Task calls not linked yet → their tool-use ids, oldest first. */
  private readonly taskPrompts = new Map<string, string[]>();

  push(record: JsonObject, line: number): MappedItem[] {
    if (this.subagentFile === undefined && (record.type === "user" || record.type === "assistant")) this.subagentFile = record.isSidechain === true;
    if (this.subagentFile === false && record.isSidechain === true) {
      const id = this.runFor(record);
      return this.wrap(id, this.runs.get(id)!.push(record, line));
    }
    if (record.type === "assistant") this.noteTasks(record);
    return this.main.push(record, line);
  }

  end(): MappedItem[] {
    const out = this.main.end();
    for (const [id, run] of this.runs) out.push(...this.wrap(id, run.end()));
    return out;
  }

  notes(): FormatNote[] {
    const all = [...this.main.notes()];
    for (const run of this.runs.values()) all.push(...run.notes());
    return all.sort((a, b) => a.line - b.line);
  }

  private wrap(session: string, items: MappedItem[]): MappedItem[] {
    return items.map((item) => (item.kind === "side" ? item : { kind: "side", session, item }));
  }

  private noteTasks(record: JsonObject): void {
    const content = isObject(record.message) ? record.message.content : undefined;
    if (!Array.isArray(content)) return;
    for (const b of content) {
      if (!isObject(b) || b.type !== "tool_use" || !TASK_TOOLS.has(str(b.name) ?? "") || typeof b.id !== "string") continue;
      const prompt = isObject(b.input) ? str(b.input.prompt) : undefined;
      if (prompt === undefined) continue;
      const ids = this.taskPrompts.get(prompt) ?? [];
      ids.push(b.id);
      this.taskPrompts.set(prompt, ids);
    }
  }

  /** The run `record` belongs to, started when it belongs to none. */
  private runFor(record: JsonObject): string {
    const parent = str(record.parentUuid);
    let id = parent !== undefined ? this.runOfUuid.get(parent) : undefined;
    if (id === undefined) {
      const mainId = str(record.sessionId) ?? "claude-code-session";
      const rootUuid = str(record.uuid) ?? `line-${this.runs.size + 1}`;
      const agentId = str(record.agentId);
      id = agentId ? subagentSessionId(mainId, agentId) : `${mainId}.sidechain-${rootUuid}`;
      if (this.runs.has(id)) id = `${id}-${this.runs.size + 1}`;
      this.runs.set(id, new ClaudeCodeMapper({ sidechain: { id, parentSession: mainId, rootUuid } }));
      this.linkTask(record, id);
    }
    const uuid = str(record.uuid);
    if (uuid !== undefined) this.runOfUuid.set(uuid, id);
    return id;
  }

  private linkTask(root: JsonObject, session: string): void {
    const prompt = root.type === "user" ? promptText(root) : undefined;
    const ids = prompt !== undefined ? this.taskPrompts.get(prompt) : undefined;
    const toolUseId = ids?.shift();
    if (toolUseId === undefined) return;
    if (ids!.length === 0) this.taskPrompts.delete(prompt!);
    this.links.set(toolUseId, session);
  }
}
