/**
 * The offline model's reading of the summarization prompt it is handed (compact() /
 * generateBranchSummary, session-engine.md §6.2, §11.3): the `<conversation>` block in the §9
 * serialization (`[User]: …`, `[Assistant tool calls]: …`, with `(entry <id>)` when sources are
 * cited, §19.2), the optional `<previous-summary>` and `<additional-context>` blocks, and the
 * instructions after them, whose Markdown headings say what kind of summary is asked for.
 * offline-summary.ts writes the summary from what this returns. Pure and deterministic.
 */

export type SummaryKind = "history" | "turnPrefix" | "short" | "branch";

type Role = "User" | "Assistant" | "Assistant thinking" | "Assistant tool calls" | "Tool result";
export interface Part {
  role: Role;
  text: string;
  /** The entry the part came from, when the prompt names it (cited sources). */
  id?: string;
}
export interface ParsedPrompt {
  parts: Part[];
  previous?: string;
  extra: string[];
  instructions: string;
}

const PART_SPLIT = /\n\n(?=\[(?:User|Assistant|Assistant thinking|Assistant tool calls|Tool result)\](?: \(entry [^)\s]+\))?: )/;
const PART_HEAD = /^\[(User|Assistant|Assistant thinking|Assistant tool calls|Tool result)\](?: \(entry ([^)\s]+)\))?: ([\s\S]*)$/;
function block(prompt: string, tag: string): { inner?: string; end: number } {
  const open = `<${tag}>\n`;
  const start = prompt.indexOf(open);
  const close = prompt.lastIndexOf(`\n</${tag}>`);
  if (start < 0 || close < start) return { end: -1 };
  return { inner: prompt.slice(start + open.length, close), end: close + tag.length + 4 };
}

export function parseSummaryPrompt(prompt: string): ParsedPrompt {
  const conv = block(prompt, "conversation");
  const prev = block(prompt, "previous-summary");
  const extra = block(prompt, "additional-context");
  const parts: Part[] = [];
  let id: string | undefined;
  for (const raw of (conv.inner ?? "").split(PART_SPLIT)) {
    const m = PART_HEAD.exec(raw.trim());
    if (!m?.[1]) continue;
    // A part without an id continues the previous message (an assistant's later parts).
    if (m[2]) id = m[2];
    else if (m[1] === "User" || m[1] === "Tool result" || m[1] === "Assistant thinking") id = undefined;
    if (m[3]?.trim()) parts.push({ role: m[1] as Role, text: m[3].trim(), ...(id ? { id } : {}) });
  }
  const end = Math.max(conv.end, prev.end, extra.end);
  return {
    parts,
    previous: prev.inner?.trim() || undefined,
    extra: (extra.inner ?? "")
      .split("\n")
      .map((l) => l.replace(/^- /, "").trim())
      .filter(Boolean),
    instructions: end >= 0 ? prompt.slice(end) : prompt,
  };
}

/** The headings the instructions ask for, in order (lines that are exactly a ##/### heading). */
export function requestedHeadings(instructions: string): string[] {
  return instructions
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^#{2,3} \S/.test(l));
}

export function inferSummaryKind(prompt: string): SummaryKind {
  const headings = requestedHeadings(parseSummaryPrompt(prompt).instructions);
  if (headings.includes("## Original Request")) return "turnPrefix";
  return headings.length ? "history" : "short";
}
