/**
 * Test factories for session entries and messages, shared by every engine test
 * (lib/session, lib/compaction, lib/agent, cli). Not used by production code.
 *
 * Pure: no network, disk or database access.
 *
 * Conventions:
 * - Messages (defined in session-messages.ts, re-exported here): `userMsg`, `assistantMsg`,
 *   `toolResultMsg`, `bashMsg`, `customMsg`, plus the content helpers `text`, `image`,
 *   `toolCall` and `usage`. Message `timestamp`s default to a fixed epoch (BASE_TIME) so
 *   assertions stay deterministic. Import everything from this file.
 * - Entries: every entry factory takes `(id, parentId, ...fields, opts?)`. `opts.timestamp`
 *   (ISO string) overrides the default; `opts.extra` merges arbitrary extra fields (unknown
 *   fields, `fromHook`, …). Without `opts.timestamp`, entries get strictly increasing
 *   timestamps one second apart from a module-level clock, so creation order equals timestamp
 *   order (that is what getTree sorts children by, session-engine.md §1.6). Use `isoAt(n)` for an explicit
 *   time of BASE_TIME + n seconds.
 * - `userEntry` / `assistantEntry` are shortcuts for a `message` entry holding a user /
 *   assistant message with the given text.
 * - `chain(...entries)` relinks entries into a linear chain (first → null, each next → the
 *   previous id), returning new objects.
 * - `header()` builds a v3 session header; `buildTree(entries)` / `emptyTree()` build a
 *   SessionTree with a deterministic clock that starts after the newest given entry.
 *   `sequentialIds(prefix)` gives deterministic ids ("n1", "n2", …) for `newId`.
 *
 * Example:
 *   const tree = buildTree(chain(userEntry("1", null, "hi"), assistantEntry("2", null, "hello")));
 *   tree.appendMessage(userMsg("next"));
 */

import { type AssistantOpts, assistantMsg, BASE_TIME, userMsg } from "@/test/session-messages";
import { SessionTree, type SessionTreeOptions } from "@/lib/session/tree/tree";
import type {
  AgentMessage,
  BranchSummaryEntry,
  CompactionEntry,
  CustomEntry,
  CustomMessageEntry,
  LabelEntry,
  MessageEntry,
  ModeChangeEntry,
  ModelChangeEntry,
  SessionEntry,
  SessionHeader,
  SessionInfoEntry,
  ThinkingLevelChangeEntry,
  TtsrInjectionEntry,
} from "@/lib/session/types";

export * from "@/test/session-messages";

/** ISO timestamp `seconds` after BASE_TIME. */
export function isoAt(seconds: number): string {
  return new Date(BASE_TIME + seconds * 1000).toISOString();
}

let clockSeconds = 0;
/** Next default entry timestamp (module-level clock, one second per call). */
function nextIso(): string {
  clockSeconds += 1;
  return isoAt(clockSeconds);
}

/** A `now()` for SessionTree: starts at `start` (epoch ms) and advances `stepMs` per call. */
export function fixedClock(start: number = BASE_TIME, stepMs = 1000): () => Date {
  let t = start - stepMs;
  return () => {
    t += stepMs;
    return new Date(t);
  };
}

/** Deterministic id generator for SessionTree `newId`: prefix1, prefix2, … skipping taken ids. */
export function sequentialIds(prefix = "n"): (taken: { has(id: string): boolean }) => string {
  let n = 0;
  return (taken) => {
    let id: string;
    do {
      n += 1;
      id = `${prefix}${n}`;
    } while (taken.has(id));
    return id;
  };
}

// ── Entries (session-engine.md §1.3–1.4) ────────────────────────────────────────────────

export interface EntryOpts {
  /** ISO timestamp; default: the module clock (strictly increasing). */
  timestamp?: string;
  /** Extra fields merged into the entry last (unknown fields, fromHook, …). */
  extra?: Record<string, unknown>;
}

/** Generic entry of any type (including unknown ones); `fields` are merged as-is. */
export function entry(
  type: string,
  id: string,
  parentId: string | null,
  fields: Record<string, unknown> = {},
  opts: EntryOpts = {},
): SessionEntry {
  return {
    type,
    id,
    parentId,
    timestamp: opts.timestamp ?? nextIso(),
    ...fields,
    ...opts.extra,
  } as SessionEntry;
}

export function messageEntry(
  id: string,
  parentId: string | null,
  message: AgentMessage,
  opts?: EntryOpts,
): MessageEntry & SessionEntry {
  return entry("message", id, parentId, { message }, opts) as MessageEntry & SessionEntry;
}

/** A `message` entry holding `userMsg(value)`. */
export function userEntry(id: string, parentId: string | null, value: string, opts?: EntryOpts) {
  return messageEntry(id, parentId, userMsg(value), opts);
}

/** A `message` entry holding `assistantMsg(value, msgOpts)`. */
export function assistantEntry(
  id: string,
  parentId: string | null,
  value: string,
  msgOpts?: AssistantOpts,
  opts?: EntryOpts,
) {
  return messageEntry(id, parentId, assistantMsg(value, msgOpts), opts);
}

export function thinkingEntry(id: string, parentId: string | null, thinkingLevel: string, opts?: EntryOpts) {
  return entry("thinking_level_change", id, parentId, { thinkingLevel }, opts) as ThinkingLevelChangeEntry &
    SessionEntry;
}

/** A modern model_change (`model` = "provider/modelId"); pass `extra` for legacy shapes. */
export function modelChangeEntry(
  id: string,
  parentId: string | null,
  model: string,
  role?: string,
  opts?: EntryOpts,
) {
  const fields: Record<string, unknown> = { model };
  if (role !== undefined) fields.role = role;
  return entry("model_change", id, parentId, fields, opts) as ModelChangeEntry & SessionEntry;
}

export function compactionEntry(
  id: string,
  parentId: string | null,
  summary: string,
  firstKeptEntryId: string,
  tokensBefore = 1000,
  opts?: EntryOpts,
) {
  return entry("compaction", id, parentId, { summary, firstKeptEntryId, tokensBefore }, opts) as CompactionEntry &
    SessionEntry;
}

export function branchSummaryEntry(
  id: string,
  parentId: string | null,
  fromId: string,
  summary: string,
  opts?: EntryOpts,
) {
  return entry("branch_summary", id, parentId, { fromId, summary }, opts) as BranchSummaryEntry & SessionEntry;
}

export function customEntry(id: string, parentId: string | null, customType: string, data?: unknown, opts?: EntryOpts) {
  const fields: Record<string, unknown> = { customType };
  if (data !== undefined) fields.data = data;
  return entry("custom", id, parentId, fields, opts) as CustomEntry & SessionEntry;
}

export function customMessageEntry(
  id: string,
  parentId: string | null,
  customType: string,
  content: CustomMessageEntry["content"],
  display = true,
  opts?: EntryOpts,
) {
  return entry("custom_message", id, parentId, { customType, content, display }, opts) as CustomMessageEntry &
    SessionEntry;
}

export function labelEntry(
  id: string,
  parentId: string | null,
  targetId: string,
  label: string | undefined,
  opts?: EntryOpts,
) {
  return entry("label", id, parentId, { targetId, label }, opts) as LabelEntry & SessionEntry;
}

export function ttsrEntry(id: string, parentId: string | null, injectedRules: string[], opts?: EntryOpts) {
  return entry("ttsr_injection", id, parentId, { injectedRules }, opts) as TtsrInjectionEntry & SessionEntry;
}

export function modeChangeEntry(
  id: string,
  parentId: string | null,
  mode: string,
  data?: Record<string, unknown>,
  opts?: EntryOpts,
) {
  const fields: Record<string, unknown> = { mode };
  if (data !== undefined) fields.data = data;
  return entry("mode_change", id, parentId, fields, opts) as ModeChangeEntry & SessionEntry;
}

export function sessionInfoEntry(id: string, parentId: string | null, name?: string, opts?: EntryOpts) {
  const fields: Record<string, unknown> = {};
  if (name !== undefined) fields.name = name;
  return entry("session_info", id, parentId, fields, opts) as SessionInfoEntry & SessionEntry;
}

/** Relinks entries into one linear chain (copies; the inputs are not mutated). */
export function chain<E extends SessionEntry = SessionEntry>(...entries: NoInfer<E>[]): E[] {
  let prev: string | null = null;
  return entries.map((e) => {
    const linked = { ...e, parentId: prev };
    prev = e.id;
    return linked;
  });
}

// ── Sessions ───────────────────────────────────────────────────────────────

/** A v3 header with id "session-1", cwd "/work" and BASE_TIME; override any field. */
export function header(overrides: Partial<SessionHeader> = {}): SessionHeader {
  return { type: "session", version: 3, id: "session-1", timestamp: isoAt(0), cwd: "/work", ...overrides };
}

/**
 * A SessionTree over `entries` (leaf = last entry, session-engine.md §1.6) with a v3 header. Its clock
 * starts one second after the newest entry timestamp, so appended entries sort last.
 * `opts` overrides the clock or id generator (default id generator: the real one).
 */
export function buildTree(
  entries: SessionEntry[],
  opts: SessionTreeOptions & { header?: SessionHeader } = {},
): SessionTree {
  let newest = BASE_TIME + clockSeconds * 1000;
  for (const e of entries) {
    const t = Date.parse(e.timestamp);
    if (t > newest) newest = t;
  }
  return new SessionTree(opts.header ?? header(), entries, {
    now: opts.now ?? fixedClock(newest + 1000),
    ...(opts.newId ? { newId: opts.newId } : {}),
  });
}

/** An empty SessionTree (leaf null) with a deterministic clock. */
export function emptyTree(opts: SessionTreeOptions & { header?: SessionHeader } = {}): SessionTree {
  return buildTree([], opts);
}
