/**
 * reconstructTurn: what the model saw for an assistant turn of a session without a recorded
 * call (an imported file), rebuilt from the session itself.
 * Pure: no network, disk or database access. Linear in the path length.
 *
 * Contract: the context of an assistant entry is buildSessionContext at the entry's PARENT
 * (session-engine.md §2) — the entry itself is the answer — then convertToLlm (session-engine.md §3), each message paired
 * with its source entry (sources.ts). What cannot be rebuilt is said, not guessed: the system
 * prompt and tool definitions are unknown unless a session_init entry on the path names the
 * system prompt, and an agent's temporary exclusions (session-engine.md §13 "Working context": an error
 * message dropped before a retry) are not in the file.
 */
import { withCodexReplacementHistory } from "@/lib/inspector/codex-history";
import { sourcedContext } from "@/lib/inspector/sources";
import type { SourcedMessage } from "@/lib/types/inspector";
import { calculatePromptTokens } from "@/lib/compaction/tokens";
import { pathToRoot } from "@/lib/session/tree/branch-path";
import type { AssistantMessage, PromptSet, SessionEntry } from "@/lib/session/types";
import { modelRef } from "@/lib/session/model-ref";

export const RECONSTRUCTED_NOTE = "Reconstructed from the session (no recorded call)";

export interface ReconstructedTurn {
  /** The assistant entry whose context this is. */
  entryId: string;
  /** Root → the entry's parent: the context's path. */
  path: SessionEntry[];
  messages: SourcedMessage[];
  /** From a session_init entry on the path (oh-my-pi sessions); null when unknown. */
  system: string | null;
  assistant: AssistantMessage;
  /** "provider/modelId" of the answer. */
  model: string;
  /** calculatePromptTokens of the answer's usage (session-engine.md §4), null when not reported. */
  providerPromptTokens: number | null;
  reconstructed: true;
}

function indexEntries(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  return new Map(entries.map((e) => [e.id, e]));
}

/** calculatePromptTokens, or null for a missing or all-zero usage. */
export function reportedPromptTokens(message: AssistantMessage): number | null {
  if (!message.usage) return null;
  const tokens = calculatePromptTokens(message.usage);
  return tokens > 0 ? tokens : null;
}

/** The last session_init system prompt on the path, if any. */
function systemPromptOf(path: readonly SessionEntry[]): string | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i];
    if (entry?.type === "session_init" && typeof entry.systemPrompt === "string") return entry.systemPrompt;
  }
  return null;
}

/** Undefined when `assistantEntryId` is not an assistant message entry of `entries`. */
export function reconstructTurn(
  entries: readonly SessionEntry[],
  assistantEntryId: string,
  prompts: PromptSet,
  byId: ReadonlyMap<string, SessionEntry> = indexEntries(entries),
): ReconstructedTurn | undefined {
  const entry = byId.get(assistantEntryId);
  if (entry?.type !== "message" || entry.message.role !== "assistant") return undefined;
  const parent = typeof entry.parentId === "string" ? byId.get(entry.parentId) : undefined;
  const path = parent ? pathToRoot(parent, byId) : [];
  const assistant = entry.message;
  return {
    entryId: entry.id,
    path,
    // A Codex compaction: what the model saw next is the replacement history, not a summary.
    messages: withCodexReplacementHistory(path, sourcedContext(path, prompts)),
    system: systemPromptOf(path),
    assistant,
    model: modelRef(assistant.provider, assistant.model),
    providerPromptTokens: reportedPromptTokens(assistant),
    reconstructed: true,
  };
}

/** The assistant entry before `entryId` on the path to it (the previous turn), if any. */
export function previousAssistantId(
  entries: readonly SessionEntry[],
  entryId: string,
  byId: ReadonlyMap<string, SessionEntry> = indexEntries(entries),
): string | null {
  const entry = byId.get(entryId);
  if (!entry) return null;
  const path = pathToRoot(entry, byId);
  for (let i = path.length - 2; i >= 0; i--) {
    const e = path[i];
    if (e?.type === "message" && e.message.role === "assistant") return e.id;
  }
  return null;
}
