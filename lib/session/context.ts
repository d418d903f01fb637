/**
 * buildSessionContext: the messages and settings an LLM turn sees at a leaf (session-engine.md §2).
 * Pure: no network, disk or database access. O(n) for the optional index, then O(path length).
 *
 * Only the branch from the root to the leaf counts. The last compaction on that branch replaces
 * everything before its kept entries with one compactionSummary message.
 */

import { pathToRoot } from "@/lib/session/tree/branch-path";
import { compactionSummaryMessageOf, messageOfEntry } from "@/lib/session/entry-messages";
import { modelRef } from "@/lib/session/model-ref";
import { pinnableMessageOf, pinnedMessageOf } from "@/lib/session/pins";
import type {
  AgentMessage,
  CompactionEntry,
  SessionContext,
  SessionEntry,
} from "@/lib/session/types";

/** The context of a null leaf or an empty session (session-engine.md §2 step 2). Frozen: copy before use. */
export const EMPTY_CONTEXT: Readonly<SessionContext> = Object.freeze({
  messages: Object.freeze([]) as unknown as AgentMessage[],
  thinkingLevel: "off",
  models: Object.freeze({}) as Record<string, string>,
  injectedTtsrRules: Object.freeze([]) as unknown as string[],
  mode: "none",
});

/** A fresh, mutable empty context. */
export function emptyContext(): SessionContext {
  return { messages: [], thinkingLevel: "off", models: {}, injectedTtsrRules: [], mode: "none" };
}

/** Session-engine.md §2 step 6: what one path entry contributes to `messages`; `ids` gets its id alongside. */
function emit(entry: SessionEntry, out: AgentMessage[], ids: string[] | undefined): void {
  // An empty branch summary (e.g. an aborted one written by an extension) adds nothing.
  if (entry.type === "branch_summary" && !entry.summary) return;
  const message = messageOfEntry(entry);
  if (!message) return;
  out.push(message);
  ids?.push(entry.id);
}

/**
 * The `models.default` an entry sets (session-engine.md §2 step 5): an assistant message its
 * provider/model, a model change without a role (or with role "default") its model; else none.
 */
export function defaultModelSetBy(entry: SessionEntry): string | undefined {
  if (entry.type === "message") return entry.message.role === "assistant" ? modelRef(entry.message.provider, entry.message.model) : undefined;
  if (entry.type === "model_change" && entry.model && (entry.role ?? "default") === "default") return entry.model;
  return undefined;
}

function indexEntries(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  const byId = new Map<string, SessionEntry>();
  for (const e of entries) byId.set(e.id, e);
  return byId;
}

/**
 * Session-engine.md §2. `leafId === null` gives the empty context; an undefined or unknown leaf falls back
 * to the last entry of `entries`. `branch`, when given, is the root-first path to that leaf
 * (SessionTree keeps it), so it is not walked again.
 */
export function buildSessionContext(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
  branch?: readonly SessionEntry[],
): SessionContext {
  return assemble(entries, leafId, byId, undefined, branch);
}

/** buildSessionContext's context, and the entry each of its messages comes from. */
export interface SourcedSessionContext {
  /** Exactly buildSessionContext(entries, leafId, byId). */
  context: SessionContext;
  /**
   * `sourceEntryIds[i]` is the id of the entry that produced `context.messages[i]`: the
   * compaction entry for the compactionSummary message, else the message, custom_message or
   * branch_summary entry emitted (session-engine.md §2 steps 6–8). Same length as `context.messages`.
   */
  sourceEntryIds: string[];
}

/** buildSessionContext plus each message's source entry id, from the same single walk. */
export function buildSourcedSessionContext(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
  branch?: readonly SessionEntry[],
): SourcedSessionContext {
  const sourceEntryIds: string[] = [];
  return { context: assemble(entries, leafId, byId, sourceEntryIds, branch), sourceEntryIds };
}

function assemble(
  entries: readonly SessionEntry[],
  leafId: string | null | undefined,
  byId: ReadonlyMap<string, SessionEntry> | undefined,
  ids: string[] | undefined,
  branch: readonly SessionEntry[] | undefined,
): SessionContext {
  if (leafId === null) return emptyContext();
  const index = byId ?? indexEntries(entries);
  const leaf = (leafId === undefined ? undefined : index.get(leafId)) ?? entries.at(-1);
  if (!leaf) return emptyContext();

  const path = branch && branch.at(-1) === leaf ? branch : pathToRoot(leaf, index);
  const ctx = emptyContext();
  const rules = new Set<string>();
  let compaction: (CompactionEntry & SessionEntry) | undefined;
  let compactionIndex = -1;

  // Step 5: one pass for settings; later entries override earlier ones.
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    switch (entry.type) {
      case "thinking_level_change":
        ctx.thinkingLevel = entry.thinkingLevel;
        break;
      case "model_change":
        // Legacy { provider, modelId } entries have no `model` and add nothing (session-engine.md §1.4).
        if (entry.model) ctx.models[entry.role ?? "default"] = entry.model;
        break;
      case "message": {
        const model = defaultModelSetBy(entry);
        if (model !== undefined) ctx.models.default = model;
        break;
      }
      case "compaction":
        compaction = entry;
        compactionIndex = i;
        break;
      case "ttsr_injection":
        if (Array.isArray(entry.injectedRules)) for (const rule of entry.injectedRules) rules.add(rule);
        break;
      case "mode_change":
        ctx.mode = entry.mode;
        ctx.modeData = entry.data;
        break;
    }
  }
  ctx.injectedTtsrRules = [...rules];

  if (!compaction) {
    // Step 8.
    for (const entry of path) emit(entry, ctx.messages, ids);
    return ctx;
  }

  // Step 7.
  ctx.messages.push(compactionSummaryMessageOf(compaction));
  ids?.push(compaction.id);
  let keptFrom = compactionIndex; // not found before the compaction ⇒ keep none of them
  for (let i = 0; i < compactionIndex; i++) {
    if (path[i]!.id === compaction.firstKeptEntryId) {
      keptFrom = i;
      break;
    }
  }
  // Arbor §19: pinned entries the compaction carried, in path order, right after the summary.
  const pinned = Array.isArray(compaction.pinnedEntryIds) ? new Set(compaction.pinnedEntryIds) : undefined;
  if (pinned?.size) {
    for (let i = 0; i < keptFrom; i++) {
      const entry = path[i]!;
      const message = pinned.has(entry.id) ? pinnableMessageOf(entry) : undefined;
      if (!message) continue;
      ctx.messages.push(pinnedMessageOf(entry, message));
      ids?.push(entry.id);
    }
  }
  for (let i = keptFrom; i < compactionIndex; i++) emit(path[i]!, ctx.messages, ids);
  for (let i = compactionIndex + 1; i < path.length; i++) emit(path[i]!, ctx.messages, ids);
  return ctx;
}
