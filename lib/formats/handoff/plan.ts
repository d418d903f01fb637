/**
 * Hand-off of a branch to another agent ("Continue in…"): what the path from the root to a chosen
 * entry gives the Claude Code and Codex writers, and what those formats cannot hold
 * (docs/formats.md "Hand-off").
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - The writers write what the model saw at the chosen entry (session-engine.md §2): the last
 *   compaction on the path as the target's own compaction (its summary), then the context's
 *   messages in the form a model receives them (§3: branch summaries, custom messages, command runs
 *   and file mentions as user messages).
 * - A response that failed or was aborted is not written, nor the results of its calls: the target
 *   would send them to its model. A tool call with no result on the path is left out of its
 *   response (the API of both targets refuses a call without its result).
 * - `notes` says, in words a person reads before writing, what the target file will not hold.
 */
import { buildSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/file/convert";
import { PIN_CUSTOM_TYPE } from "@/lib/session/pins";
import type { AssistantMessage, CompactionEntry, LlmMessage, PromptSet, SessionEntry, ToolResultMessage } from "@/lib/session/types";

/** The agents a branch can be handed to. */
export type HandoffFormat = "pi" | "claude" | "codex";

export const HANDOFF_LABELS: Record<HandoffFormat, string> = { pi: "pi", claude: "Claude Code", codex: "Codex CLI" };

export interface HandoffInput {
  /** Root-first path to the chosen entry (the engine's branch path). */
  path: readonly SessionEntry[];
  /** The session's cwd (the target agent files the session under it). */
  cwd: string;
  /** The session's title, when it has one. */
  title?: string;
  /** The Arbor session the branch comes from. */
  sourceSessionId: string;
  /** How many entries the whole session holds (those off the path are not written). */
  sessionEntryCount: number;
  prompts: PromptSet;
  /** The new session's id in the target (a UUID); a fresh one from `newId` when absent. */
  sessionId?: string;
  /** A fresh random UUID (crypto.randomUUID in the app; seeded in tests). */
  newId: () => string;
  /** The moment of writing (file names, the new session's header). */
  now: Date;
  /** The CLI version the target file claims to come from (both targets record one). */
  targetVersion?: string;
}

export interface HandoffOutput {
  format: HandoffFormat;
  /** The new session's id in the target (what `--resume` / `resume` takes). */
  sessionId: string;
  /** The file's name, and its folder below the agent's sessions folder ("/"-separated). */
  fileName: string;
  folder: string;
  text: string;
  /** What the file does not hold, one sentence each. */
  notes: string[];
}

export interface HandoffPlan {
  compaction?: CompactionEntry;
  /** The compaction's summary as a model reads it (the context template applied). */
  compactionText?: string;
  /** The context after the compaction (or all of it), as the model received it. */
  messages: LlmMessage[];
  notes: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Notes every format shares: what lies off the path. */
export function offPathNotes(input: HandoffInput): string[] {
  const off = input.sessionEntryCount - input.path.length;
  return off > 0 ? [`${plural(off, "entry", "entries")} on other branches of the session ${off === 1 ? "is" : "are"} not written: only the path to the chosen entry.`] : [];
}

function isFailed(m: LlmMessage): boolean {
  return m.role === "assistant" && (m.stopReason === "error" || m.stopReason === "aborted");
}

/** The context messages a target can replay: failed responses and unanswered calls left out. */
function replayable(messages: LlmMessage[], notes: string[]): LlmMessage[] {
  const dropped = new Set<string>();
  const answered = new Set(messages.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : [])));
  let failed = 0;
  let unanswered = 0;
  const out: LlmMessage[] = [];
  for (const m of messages) {
    if (m.role === "assistant" && isFailed(m)) {
      failed += 1;
      for (const c of m.content) if (c.type === "toolCall") dropped.add(c.id);
      continue;
    }
    if (m.role === "toolResult" && dropped.has(m.toolCallId)) continue;
    if (m.role === "assistant" && m.content.some((c) => c.type === "toolCall" && !answered.has(c.id))) {
      const content = m.content.filter((c) => c.type !== "toolCall" || answered.has(c.id));
      unanswered += m.content.length - content.length;
      if (content.length > 0) out.push({ ...m, content });
      continue;
    }
    out.push(m);
  }
  if (failed > 0) notes.push(`${plural(failed, "failed or aborted response")} (and the results of ${failed === 1 ? "its" : "their"} calls) ${failed === 1 ? "is" : "are"} not written.`);
  if (unanswered > 0) notes.push(`${plural(unanswered, "tool call")} without a result on the path ${unanswered === 1 ? "is" : "are"} left out.`);
  return out;
}

/** What the Claude Code and Codex writers write, and what they cannot hold. */
export function planHandoff(input: HandoffInput): HandoffPlan {
  const { path, prompts } = input;
  const notes = offPathNotes(input);
  const leaf = path.at(-1);
  if (!leaf) return { messages: [], notes };
  const context = buildSessionContext(path, leaf.id, undefined, path).messages;
  let compaction: CompactionEntry | undefined;
  let before = 0;
  path.forEach((e, i) => {
    if (e.type !== "compaction") return;
    compaction = e;
    before = i;
  });
  const rest = compaction && context[0]?.role === "compactionSummary" ? context.slice(1) : context;
  const messages = replayable(convertToLlm(rest, prompts), notes);
  const plan: HandoffPlan = { messages, notes };
  if (compaction) {
    plan.compaction = compaction;
    plan.compactionText = convertToLlm(context.slice(0, 1), prompts)
      .flatMap((m) => (m.role === "user" && typeof m.content !== "string" ? m.content : []))
      .map((c) => (c.type === "text" ? c.text : ""))
      .join("");
    notes.push(`The compaction's summary is written as the target's own compaction; what it summarised (${plural(before, "entry", "entries")} before it) is not written, as the model no longer saw it.`);
  }
  const count = (pred: (e: SessionEntry) => boolean) => path.filter(pred).length;
  const branchSummaries = count((e) => e.type === "branch_summary");
  if (branchSummaries > 0) notes.push(`${plural(branchSummaries, "branch summary", "branch summaries")} ${branchSummaries === 1 ? "is" : "are"} written as a user message.`);
  const asUser = rest.filter((m) => m.role === "custom" || m.role === "hookMessage" || m.role === "bashExecution" || m.role === "pythonExecution" || m.role === "fileMention").length;
  if (asUser > 0) notes.push(`${plural(asUser, "message")} the target has no kind for (extension messages, command runs, file mentions, pinned entries) ${asUser === 1 ? "is" : "are"} written as user messages.`);
  const labels = count((e) => e.type === "label");
  if (labels > 0) notes.push(`${plural(labels, "label")} (Arbor's names for entries) ${labels === 1 ? "is" : "are"} not carried.`);
  const pins = count((e) => e.type === "custom" && e.customType === PIN_CUSTOM_TYPE);
  if (pins > 0) notes.push(`${plural(pins, "pin change")} ${pins === 1 ? "is" : "are"} not carried (Arbor's pins).`);
  const settings = count((e) => e.type === "model_change" || e.type === "thinking_level_change");
  if (settings > 0) notes.push(`${plural(settings, "model or thinking-level change")} ${settings === 1 ? "is" : "are"} not carried: the agent resumes with its own model settings.`);
  const kept = count((e) => e.type === "custom" && e.customType !== PIN_CUSTOM_TYPE);
  if (kept > 0) notes.push(`${plural(kept, "custom entry", "custom entries")} (extension state, other agents' records Arbor keeps) ${kept === 1 ? "is" : "are"} not carried.`);
  return plan;
}

/** Drops thinking blocks `keep` refuses from every response; says how many went. */
export function dropThinking(messages: LlmMessage[], keep: (block: { thinking: string; thinkingSignature?: string }, m: AssistantMessage) => boolean, why: string, notes: string[]): LlmMessage[] {
  let dropped = 0;
  const out = messages.map((m) => {
    if (m.role !== "assistant") return m;
    const content = m.content.filter((c) => c.type !== "thinking" || keep(c, m));
    dropped += m.content.length - content.length;
    return content.length === m.content.length ? m : { ...m, content };
  });
  if (dropped > 0) notes.push(`${plural(dropped, "thinking block")} ${dropped === 1 ? "is" : "are"} not written: ${why}.`);
  return out.filter((m) => m.role !== "assistant" || m.content.length > 0);
}

/** Text of a result or prompt's text parts, joined. */
export function textOf(content: ToolResultMessage["content"] | string): string {
  if (typeof content === "string") return content;
  return content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** ISO time of a message (epoch ms), or the fallback when it has none. */
export function isoOf(ms: number | undefined, fallback: Date): string {
  return new Date(typeof ms === "number" && Number.isFinite(ms) ? ms : fallback.getTime()).toISOString();
}
