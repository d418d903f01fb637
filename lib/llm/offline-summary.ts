/**
 * Extractive summaries for the offline model (conventions rule 6): no LLM, just facts lifted from
 * the summarization prompt.
 * Pure and deterministic: the same prompt always yields the same text.
 *
 * Input is the prompt built by compact()/generateBranchSummary (session-engine.md §6.2, §11.3): a
 * `<conversation>` block in the session-engine.md §9 serialization (`[User]: …`, `[Assistant]: …`,
 * `[Assistant tool calls]: read(path="…")`, `[Tool result]: …`), optionally `<previous-summary>`
 * and `<additional-context>` blocks, then the instructions. The output fills the Markdown
 * headings the instructions ask for (session-engine.md §17), merging the previous summary's items; a request
 * with no headings (the short summary, §17.4) gets 2–3 first-person sentences. Every list is
 * capped and the whole text is cut to `maxChars`, so the size stays bounded.
 *
 * Cited sources (docs/session-engine.md §19.2): when the conversation names each message's entry
 * (`[User] (entry 1a2b3c4d): …`), every item lifted from a message ends with `[src: 1a2b3c4d]`;
 * an assistant's later parts (tool calls) belong to the entry named by its first part.
 */

import { focusItems, focusOf } from "@/lib/llm/offline-focus";
import { type ParsedPrompt, type Part, parseSummaryPrompt, requestedHeadings, type SummaryKind } from "@/lib/llm/offline-prompt";

const HISTORY_HEADINGS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "### Done",
  "### In Progress",
  "### Blocked",
  "## Key Decisions",
  "## Next Steps",
  "## Critical Context",
];
const TURN_PREFIX_HEADINGS = ["## Original Request", "## Early Progress", "## Context for Suffix"];
const ITEM_CHARS = 200;
const DEFAULT_MAX_CHARS = 6000;


const clip = (s: string, n = ITEM_CHARS) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};
const firstSentence = (s: string) => clip(s.split(/(?<=[.!?])\s/)[0] ?? s);
// Citations do not make an item different: the first one's tag is kept.
const norm = (s: string) => s.replace(/ \[src: [^\]\n]+\]/g, "").replace(/^(- \[[ x]\] |- |\d+\. )/, "").toLowerCase();

function dedupe(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const key = norm(i);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Splits `a(x="1; 2"); b(y=3)` at top-level "; " only. */
function splitCalls(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === ";" && depth === 0 && text[i + 1] === " ") {
      out.push(text.slice(start, i));
      start = i + 2;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

function filePaths(parts: Part[], previous?: string): string[] {
  const found: string[] = [];
  for (const p of parts) {
    if (p.role === "Assistant tool calls") {
      for (const m of p.text.matchAll(/\b(?:path|file_path|filePath)="((?:[^"\\]|\\.)*)"/g)) {
        try {
          found.push(JSON.parse(`"${m[1]}"`) as string);
        } catch {
          found.push(m[1] ?? "");
        }
      }
    } else if (p.role !== "Tool result") {
      for (const m of p.text.matchAll(/(?:^|[\s`'"(])((?:\.{0,2}\/)?(?:[\w@.-]+\/)+[\w@.-]+\.[A-Za-z0-9]{1,8})(?=$|[\s`'"),:;])/g)) {
        if (m[1]) found.push(m[1]);
      }
    }
  }
  for (const m of (previous ?? "").matchAll(/^- Files?: (.+)$/gm)) found.push(...(m[1] ?? "").split(", "));
  return [...new Set(found.map((f) => f.trim()).filter(Boolean))];
}

/** Items under each heading of a previous summary (bullets, numbered items or plain lines). */
function previousSections(previous?: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  let current = "";
  for (const line of (previous ?? "").split("\n")) {
    const h = /^#{2,3} (.+)$/.exec(line.trim());
    if (h?.[1]) {
      current = h[1].trim().toLowerCase();
      map.set(current, map.get(current) ?? []);
    } else if (current && line.trim() && !/^\(none\)$|^- \(none\)$/.test(line.trim())) {
      map.get(current)?.push(line.trim());
    }
  }
  return map;
}

function lastN(items: string[], n: number): string[] {
  if (items.length <= n) return items;
  return [`- [x] (${items.length - n + 1} earlier steps condensed)`, ...items.slice(items.length - n + 1)];
}

/** ` [src: id]` for an item lifted from a part that names its entry, else "". */
const cite = (p: Part | undefined) => (p?.id ? ` [src: ${p.id}]` : "");

interface Facts {
  users: string[];
  /** The user parts behind `users` (same order), for their citations. */
  userParts: Part[];
  done: string[];
  decisions: string[];
  constraints: string[];
  blocked: string[];
  files: string[];
  last?: Part;
  lastToolCall?: string;
  /** Verbatim sentences the compaction focus asks about (offline-focus.ts). */
  focus: string[];
}

function collectFacts(parsed: ParsedPrompt): Facts {
  const users: string[] = [];
  const userParts: Part[] = [];
  const done: string[] = [];
  const decisions: string[] = [];
  const constraints: string[] = [];
  const blocked: string[] = [];
  let lastToolCall: string | undefined;
  for (const p of parsed.parts) {
    if (p.role === "User") {
      users.push(p.text);
      userParts.push(p);
      for (const s of p.text.split(/(?<=[.!?])\s+|\n+/)) {
        if (/\b(must|should|never|always|don't|do not|prefer|without|only)\b/i.test(s)) constraints.push(`- ${clip(s)}${cite(p)}`);
      }
    } else if (p.role === "Assistant") {
      done.push(`- [x] ${firstSentence(p.text)}${cite(p)}`);
      for (const s of p.text.split(/(?<=[.!?])\s+/)) {
        if (/\b(decided|decide to|i'll use|we'll use|will use|chose|instead of|going with)\b/i.test(s)) {
          decisions.push(`- **Decision**: ${clip(s)}${cite(p)}`);
        }
      }
    } else if (p.role === "Assistant tool calls") {
      for (const call of splitCalls(p.text)) {
        done.push(`- [x] ${clip(call, 160)}${cite(p)}`);
        lastToolCall = clip(call, 160);
      }
    } else if (p.role === "Tool result" && /\b(error|failed|exception|not found|denied)\b/i.test(p.text)) {
      blocked.push(`- ${clip(p.text.split("\n")[0] ?? "", 160)}${cite(p)}`);
    }
  }
  const focus = focusOf(parsed.instructions);
  return {
    users,
    userParts,
    done,
    decisions,
    constraints,
    blocked,
    files: filePaths(parsed.parts, parsed.previous),
    last: parsed.parts.at(-1),
    lastToolCall,
    focus: focus ? focusItems(parsed.parts, focus).map((s) => `- Focus: ${s}`) : [],
  };
}

function sectionBody(heading: string, f: Facts, prev: Map<string, string[]>, parsed: ParsedPrompt): string[] {
  const name = heading.replace(/^#+ /, "").trim().toLowerCase();
  const old = prev.get(name) ?? [];
  const lastUser = f.users.at(-1);
  const endsWithTool = f.last?.role === "Assistant tool calls" || f.last?.role === "Tool result";
  switch (name) {
    case "goal":
      // The opening request states the goal; later user messages are steering (Next Steps).
      return dedupe([...old, ...f.users.slice(0, 1).map((u) => `${clip(u, 300)}${cite(f.userParts[0])}`)]).slice(0, 5);
    case "constraints & preferences":
      return dedupe([...old, ...f.constraints]).slice(0, 6);
    case "progress":
      return [];
    case "done":
    case "early progress":
      return lastN(dedupe([...(name === "done" ? old : []), ...f.done]), 15);
    case "in progress":
      if (f.last?.role === "User") return [`- [ ] ${clip(f.last.text)}${cite(f.last)}`];
      return endsWithTool && f.lastToolCall ? [`- [ ] Continue after ${f.lastToolCall}`] : [];
    case "blocked":
      return dedupe(f.blocked).slice(-3);
    case "key decisions":
      return dedupe([...old, ...f.decisions]).slice(0, 8);
    case "next steps": {
      const steps = lastUser ? [`${clip(lastUser)}${cite(f.userParts.at(-1))}`] : [];
      if (endsWithTool && f.lastToolCall) steps.push(`Review the result of ${f.lastToolCall}`);
      return steps.map((s, i) => `${i + 1}. ${s}`);
    }
    case "critical context":
    case "context for suffix": {
      const items = f.files.slice(0, 20).map((p) => `- ${p}`);
      if (f.last?.role === "Assistant" && f.last.text.trim().endsWith("?")) items.push(`- Open question: ${f.last.text.trim()}`);
      if (name === "context for suffix" && f.last?.role === "Assistant") items.push(`- Last statement: ${firstSentence(f.last.text)}`);
      const focus = name === "critical context" ? f.focus : [];
      return dedupe([...focus, ...(name === "critical context" ? old.filter((o) => !f.files.includes(o.slice(2))) : []), ...items, ...parsed.extra.map((e) => `- ${clip(e)}`)]).slice(0, 30);
    }
    case "original request":
      return f.users[0] ? [`${clip(f.users[0], 400)}${cite(f.userParts[0])}`] : [];
    case "additional notes":
      return ["- Extractive summary written by Arbor's offline model (no language model is configured)."];
    default:
      return old;
  }
}

const SOURCE_TAG = / \[src: [^\]\n]+\]/g;

/**
 * Where `maxChars` characters of text end in `text`, not counting ` [src: …]` tags: citations
 * come on top of the budget, so a cited summary keeps the same items as an uncited one.
 */
function budgetEnd(text: string, maxChars: number): number {
  let counted = 0;
  let at = 0;
  for (const m of text.matchAll(SOURCE_TAG)) {
    const start = m.index ?? 0;
    if (counted + (start - at) >= maxChars) break;
    counted += start - at;
    at = start + m[0].length;
  }
  return at + (maxChars - counted);
}

function cut(text: string, maxChars: number): string {
  const end = budgetEnd(text, maxChars);
  if (text.length <= end) return text;
  const head = text.slice(0, end);
  const nl = head.lastIndexOf("\n");
  return (nl > end / 2 ? head.slice(0, nl) : head).trimEnd();
}

function shortSummary(f: Facts, prev: Map<string, string[]>): string {
  const goal = (prev.get("goal")?.[0] ?? f.users[0] ?? "").replace(/^- /, "");
  const done = dedupe([...(prev.get("done") ?? []), ...f.done]).map((d) => d.replace(/^- \[x\] /, ""));
  const sentences: string[] = [];
  // One sentence each: only the first sentence of a goal or step, without its end mark.
  const sentence = (s: string, n: number) => clip(firstSentence(s), n).replace(/[.?!…\s]+$/, "");
  sentences.push(goal ? `I worked on: ${sentence(goal, 160)}.` : "I reviewed the conversation so far.");
  if (done.length) sentences.push(`I completed ${done.length} step${done.length === 1 ? "" : "s"}, most recently ${sentence(done.at(-1) ?? "", 120)}.`);
  if (f.files.length) sentences.push(`The changes involve ${f.files.slice(0, 5).join(", ")}${f.files.length > 5 ? " and more" : ""}.`);
  return sentences.join(" ").replace(/\?/g, ".");
}

/** The offline model's answer to a summarization prompt. */
export function extractiveSummary(prompt: string, opts: { kind?: SummaryKind; maxChars?: number } = {}): string {
  const parsed = parseSummaryPrompt(prompt);
  const facts = collectFacts(parsed);
  const prev = previousSections(parsed.previous);
  const asked = requestedHeadings(parsed.instructions);
  const kind = opts.kind ?? (asked.includes("## Original Request") ? "turnPrefix" : asked.length ? "history" : "short");
  // What a focus asks for is quoted on top of the usual budget, so the cut never drops it.
  const focusChars = facts.focus.reduce((n, s) => n + s.length + 1, 0);
  const maxChars = opts.maxChars ?? DEFAULT_MAX_CHARS + focusChars;
  if (kind === "short" && asked.length === 0) return cut(shortSummary(facts, prev), maxChars);

  const headings = asked.length ? asked : kind === "turnPrefix" ? TURN_PREFIX_HEADINGS : HISTORY_HEADINGS;
  const sections = headings.map((h) => {
    const body = sectionBody(h, facts, prev, parsed);
    if (h.replace(/^#+ /, "").toLowerCase() === "progress") return h;
    return `${h}\n${body.length ? body.join("\n") : "(none)"}`;
  });
  return cut(sections.join("\n\n"), maxChars);
}
