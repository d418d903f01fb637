/**
 * The offline model's answer to a compaction focus ("Additional focus: …", session-engine.md §6.2): the
 * sentences of the conversation the focus asks about, quoted verbatim so nothing is paraphrased
 * away. Pure and deterministic.
 *
 * - Words that name a kind of fact pick every fact of that kind: "instruction(s)", "constraint(s)"
 *   or "request(s)" → the user's imperative sentences; "error(s)" or "failure(s)" → the first line
 *   of failing tool output; "number(s)", "unit(s)" or "timing(s)" → sentences with a number and a
 *   unit; "todo(s)", "next" or "remaining" → TODO lines.
 * - Any other word of 4+ letters picks the user and assistant sentences that contain it.
 * At most MAX_PER_RULE items per rule and MAX_ITEMS in all, in conversation order within each rule.
 */
import { isImperative, NUMBER_UNIT, sentencesOf, TODO_LINE } from "@/lib/compaction/fact-extract";

export interface FocusPart {
  role: string;
  text: string;
}

const MAX_ITEMS = 30;
const MAX_PER_RULE = 10;
const ERROR_WORDS = /\b(error|failed|exception|not found|denied|cannot|enoent)\b/i;
const stem = (w: string) => w.toLowerCase().replace(/s$/, "");
const META = new Set(["instruction", "constraint", "request", "error", "failure", "number", "unit", "timing", "todo", "next", "remaining"]);

export function focusOf(instructions: string): string | undefined {
  return /Additional focus:\s*([\s\S]+)$/.exec(instructions)?.[1]?.trim() || undefined;
}

export function focusItems(parts: readonly FocusPart[], focus: string): string[] {
  const words = (focus.match(/[A-Za-z][\w-]{3,}/g) ?? []).map(stem);
  const asks = (...names: string[]) => names.some((n) => words.includes(n));
  const talk = parts.filter((p) => p.role === "User" || p.role === "Assistant");
  const items: string[] = [];
  let rule = "";
  let inRule = 0;
  const add = (s: string, name: string) => {
    if (name !== rule) [rule, inRule] = [name, 0];
    const t = s.replace(/\s+/g, " ").trim();
    if (!t || inRule >= MAX_PER_RULE || items.includes(t)) return;
    inRule++;
    items.push(t.length > 200 ? `${t.slice(0, 199)}…` : t);
  };
  if (asks("instruction", "constraint", "request")) {
    for (const p of parts) if (p.role === "User") for (const s of sentencesOf(p.text)) if (isImperative(s)) add(s, "instruction");
  }
  if (asks("error", "failure")) {
    for (const p of parts) if (p.role === "Tool result" && ERROR_WORDS.test(p.text)) add(p.text.split("\n").find((l) => ERROR_WORDS.test(l)) ?? "", "error");
  }
  if (asks("number", "unit", "timing")) {
    for (const p of talk) for (const s of sentencesOf(p.text)) if (new RegExp(NUMBER_UNIT.source, "i").test(s)) add(s, "number");
  }
  if (asks("todo", "next", "remaining")) {
    for (const p of talk) for (const l of p.text.split("\n")) if (TODO_LINE.test(l)) add(l, "todo");
  }
  const plain = words.filter((w) => !META.has(w) && w.length >= 4);
  if (plain.length) {
    for (const p of talk) {
      for (const s of sentencesOf(p.text)) {
        const lower = s.toLowerCase();
        if (plain.some((w) => lower.includes(w))) add(s, "word");
      }
    }
  }
  return items.slice(0, MAX_ITEMS);
}
