/**
 * Summaries that cite their sources (an opt-in Arbor extension,
 * `compaction.citeSources`, docs/session-engine.md §19.2).
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - With the setting on, each message of the `<conversation>` block names its entry:
 *   `[User] (entry 1a2b3c4d): …` — the id sits after the first role tag of each message (an
 *   assistant's later parts belong to the same entry). With it off nothing changes (session-engine.md §6.2).
 * - The history and turn-prefix prompts then end with CITE_INSTRUCTION, which asks for a tag
 *   `[src: ID]` or `[src: ID, ID]` at the end of every bullet.
 * - `parseCitations` splits a summary into text and tags; `citedIds` lists the ids a summary
 *   cites. Both accept `src`, `source`, `sources` and `entries` before the colon and ids
 *   separated by commas or spaces, since models vary the form a little.
 */
import { serializeConversation } from "@/lib/compaction/serialize";
import { convertToLlm } from "@/lib/session/file/convert";
import type { AgentMessage, PromptSet } from "@/lib/session/types";

/** Appended to the history and turn-prefix prompts when sources are cited (our own wording). */
export const CITE_INSTRUCTION = [
  "Cite your sources. Every message in the conversation above is marked with the id of the entry it",
  'is stored in, for example "[User] (entry 1a2b3c4d):". End each bullet of your summary with the ids',
  "of the entries it is based on, in the form [src: 1a2b3c4d] or [src: 1a2b3c4d, 9e8f7a6b]. Use only",
  "ids that appear in the conversation. A bullet carried over from the previous summary keeps the",
  "tags it already has; one that has no single source may go without a tag.",
].join("\n");

const FIRST_ROLE_TAG = /^\[(User|Assistant|Assistant thinking|Assistant tool calls|Tool result)\]: /;

/** The §9 transcript with each message's entry id after its first role tag. */
export function serializeWithSources(messages: readonly AgentMessage[], ids: readonly string[], prompts: PromptSet): string {
  const parts: string[] = [];
  messages.forEach((message, i) => {
    const text = serializeConversation(convertToLlm([message], prompts));
    if (!text) return;
    const id = ids[i];
    parts.push(id ? text.replace(FIRST_ROLE_TAG, (_m, role: string) => `[${role}] (entry ${id}): `) : text);
  });
  return parts.join("\n\n");
}

export type CitationSegment = { text: string } | { ids: string[]; raw: string };

const TAG = /\[(?:src|sources?|entries)\s*:\s*([0-9A-Za-z_-]+(?:[\s,]+[0-9A-Za-z_-]+)*)\s*\]/gi;

/** The summary as text segments and citation tags, in order; concatenating `text`/`raw` gives it back. */
export function parseCitations(summary: string): CitationSegment[] {
  const out: CitationSegment[] = [];
  let at = 0;
  for (const m of summary.matchAll(TAG)) {
    const start = m.index ?? 0;
    if (start > at) out.push({ text: summary.slice(at, start) });
    const ids = (m[1] ?? "").split(/[\s,]+/).filter(Boolean);
    out.push({ ids, raw: m[0] });
    at = start + m[0].length;
  }
  if (at < summary.length) out.push({ text: summary.slice(at) });
  return out;
}

/** Every id the summary cites, once each, in first-cited order. */
export function citedIds(summary: string): string[] {
  const seen = new Set<string>();
  for (const s of parseCitations(summary)) if ("ids" in s) for (const id of s.ids) seen.add(id);
  return [...seen];
}
