/**
 * Fact extraction for the compaction fact check (an Arbor extension, not part of the
 * engine contract: nothing in session-engine.md §5–§10 reads it).
 * Pure: no network, disk or database access. Deterministic: the same span gives the same facts
 * in the same order.
 *
 * From the entries a compaction summarised, it lifts the facts a continuation depends on, each
 * with the id of the entry it came from:
 * - `file`: paths of read / write / edit tool calls (the same source as the file tags, session-engine.md §10);
 * - `error`: the first line of a failed tool result or bash run that says what went wrong
 *   (fact-lines.ts: not the command's echo or progress lines, nothing for an output without
 *   one), and the first line of an assistant error;
 * - `instruction`: imperative sentences of (non-synthetic) user messages;
 * - `identifier`: inline code spans, and names declared in fenced code, of user and assistant text;
 * - `url`: http(s) URLs in user and assistant text;
 * - `number`: numbers with a unit ("200 ms", "16 GB", "40%");
 * - `todo`: every user or assistant line with TODO / FIXME / next / remaining / must that states
 *   something to do (fact-lines.ts: no questions, lead-ins or offers).
 * A fact is listed once, under the first kind that finds it (in the order above), at its first
 * source entry. Tool-result bodies (file contents, command output) are not mined except for errors:
 * they are what the agent looked at, not what it was told or decided.
 */
import { contentText } from "@/lib/session/tree/tree-row-text";
import type { AssistantMessage, SessionEntry } from "@/lib/session/types";
import { errorLineOf, isTodoLine } from "@/lib/compaction/fact-lines";
import { normalizeText, relativePath } from "@/lib/compaction/fact-normalize";

export const FACT_KINDS = ["file", "error", "instruction", "identifier", "url", "number", "todo"] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export const FACT_KIND_LABELS: Record<FactKind, string> = {
  file: "Files",
  error: "Errors",
  instruction: "Instructions",
  identifier: "Identifiers",
  url: "URLs",
  number: "Numbers with units",
  todo: "TODO and next steps",
};

export interface Fact {
  kind: FactKind;
  /** As shown to the user (paths relative to cwd, long text clipped). */
  text: string;
  /** Normalised form matched against the summary (fact-normalize.ts). */
  key: string;
  /** The entry the fact came from. */
  entryId: string;
  /** For files: whether the span only read it or modified it. */
  detail?: "read" | "modified";
}

const TEXT_CHARS = 200;
const clip = (s: string, n = TEXT_CHARS) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};

const FENCE = /```[^\n]*\n([\s\S]*?)```/g;
const INLINE_CODE = /`([^`\n]{2,80})`/g;
const DECLARATION = /\b(?:function|class|interface|type|enum|struct|def|fn|const|let)\s+([A-Za-z_$][\w$]{1,60})/g;
const URL = /https?:\/\/[^\s<>"'`)\]}]+/g;
export const NUMBER_UNIT =
  /(?<![\w.])(\d+(?:\.\d+)?)\s?(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|kib|mib|gib|kb|mb|gb|tb|bytes?|tokens?|k|px|%|lines?|files?|tests?|chars?|characters?|entries|requests?|x)(?![\w%])/gi;
export { TODO_LINE } from "@/lib/compaction/fact-lines";
const IMPERATIVE_OPENERS = new Set(
  (
    "add use keep make fix write run remove delete rename create update change move check test avoid ensure implement " +
    "refactor replace try show read open look find stop start put set call return let split merge commit push install " +
    "build deploy document explain list print log handle support skip ignore convert extract port bump revert undo send " +
    "include exclude limit cap rewrite clean drop wrap follow prefer leave give store save load stay pin"
  ).split(" "),
);
const FILLER = /^(?:please|now|then|also|and|so|first|finally|just|next|ok|okay)[,:]?\s+/i;
const PROHIBITION = /^(?:don't|do not|never|always|make sure|be sure|remember to)\b/i;

/** Lines of text outside fenced code blocks, plus the code blocks' bodies. */
function splitCode(text: string): { prose: string; code: string[] } {
  const code: string[] = [];
  const prose = text.replace(FENCE, (_m, body: string) => {
    code.push(body);
    return "\n";
  });
  return { prose, code };
}

/** Whether a sentence reads as an instruction (an imperative, or don't / never / always …). */
export function isImperative(sentence: string): boolean {
  if (sentence.endsWith("?") || sentence.length < 8) return false;
  let s = sentence.replace(/^(?:[-*]|\d+[.)])\s+/, "");
  for (let i = 0; i < 3 && FILLER.test(s); i++) s = s.replace(FILLER, "");
  if (PROHIBITION.test(s)) return true;
  const first = /^[A-Za-z']+/.exec(s)?.[0]?.toLowerCase();
  return first !== undefined && IMPERATIVE_OPENERS.has(first);
}

/** Sentences of prose (split at . ! ? and line breaks). */
export function sentencesOf(prose: string): string[] {
  return prose
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function firstLine(text: string): string {
  return text.split("\n").map((l) => l.trim()).find((l) => l.length > 0) ?? "";
}

class Collector {
  readonly facts: Fact[] = [];
  private readonly seen = new Set<string>();
  constructor(readonly cwd: string | undefined) {}

  add(kind: FactKind, text: string, entryId: string, detail?: Fact["detail"]): void {
    const shown = clip(text);
    const key = normalizeText(shown, this.cwd);
    if (!key || this.seen.has(key)) return;
    this.seen.add(key);
    this.facts.push(detail ? { kind, text: shown, key, entryId, detail } : { kind, text: shown, key, entryId });
  }

  /** A file fact; a later write or edit of an already read file upgrades it to "modified". */
  addFile(path: string, entryId: string, modified: boolean): void {
    const rel = relativePath(path, this.cwd);
    const key = normalizeText(rel);
    const existing = this.facts.find((f) => f.kind === "file" && f.key === key);
    if (existing) {
      if (modified) existing.detail = "modified";
      return;
    }
    this.add("file", rel, entryId, modified ? "modified" : "read");
  }

  /** Identifiers, URLs, numbers and TODO lines of user or assistant text. */
  addProse(text: string, entryId: string): void {
    const { prose, code } = splitCode(text);
    for (const m of prose.matchAll(INLINE_CODE)) {
      const span = m[1]!.trim();
      if (span && span.split(/\s+/).length <= 5) this.add("identifier", /[/.]\w/.test(span) ? relativePath(span, this.cwd) : span, entryId);
    }
    for (const body of code) for (const m of body.matchAll(DECLARATION)) this.add("identifier", m[1]!, entryId);
    for (const m of prose.matchAll(URL)) this.add("url", m[0].replace(/[.,;:!?]+$/, ""), entryId);
    for (const m of prose.matchAll(NUMBER_UNIT)) this.add("number", `${m[1]} ${m[2]!.toLowerCase()}`, entryId);
    for (const line of prose.split("\n")) {
      if (/^\s*#/.test(line)) continue; // a heading names a part of the text, it asks for nothing
      const l = line.replace(/^\s*(?:[-*]|\d+[.)])\s*/, "").trim();
      if (isTodoLine(l)) this.add("todo", l, entryId);
    }
  }
}

function assistantText(m: AssistantMessage): string {
  return m.content.map((b) => (b.type === "text" ? b.text : "")).filter(Boolean).join("\n");
}

/** Facts of the summarised entries, in span order (see the header for what counts). */
export function extractFacts(span: readonly SessionEntry[], opts: { cwd?: string } = {}): Fact[] {
  const c = new Collector(opts.cwd || undefined);
  // Pass 1 (files and errors) runs over the whole span first, so a path that is also mentioned in
  // text is listed as a file, and an error line quoted by the assistant is listed as an error.
  for (const e of span) {
    if (e.type !== "message") continue;
    const m = e.message;
    if (m.role === "assistant" && Array.isArray(m.content)) {
      for (const b of m.content) {
        if (b.type !== "toolCall") continue;
        const path = b.arguments?.path;
        if (typeof path !== "string" || path === "") continue;
        if (b.name === "read") c.addFile(path, e.id, false);
        else if (b.name === "write" || b.name === "edit") c.addFile(path, e.id, true);
      }
      if (m.stopReason === "error" && m.errorMessage) c.add("error", firstLine(m.errorMessage), e.id);
    } else if (m.role === "toolResult" && m.isError) {
      const line = errorLineOf(contentText(m.content));
      if (line) c.add("error", line, e.id);
    } else if (m.role === "bashExecution" && !m.cancelled && m.exitCode !== 0 && m.exitCode != null) {
      const line = errorLineOf(m.output);
      if (line) c.add("error", line, e.id);
    }
  }
  // Pass 2: instructions first (a user's "must" sentence is an instruction, not a TODO line).
  for (const e of span) {
    if (e.type === "message" && e.message.role === "user" && !e.message.synthetic) {
      for (const s of sentencesOf(splitCode(contentText(e.message.content)).prose)) {
        if (isImperative(s)) c.add("instruction", s, e.id);
      }
    }
  }
  for (const e of span) {
    if (e.type !== "message") continue;
    const m = e.message;
    if (m.role === "user" && !m.synthetic) c.addProse(contentText(m.content), e.id);
    else if (m.role === "assistant" && Array.isArray(m.content)) c.addProse(assistantText(m), e.id);
  }
  const order = new Map(FACT_KINDS.map((k, i) => [k, i]));
  return c.facts.map((f, i) => ({ f, i })).sort((a, b) => order.get(a.f.kind)! - order.get(b.f.kind)! || a.i - b.i).map((x) => x.f);
}
