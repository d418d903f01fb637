/**
 * Seeded synthetic sessions shaped like real pi/oh-my-pi sessions, for tests that must not
 * depend on the shared fixtures, for benchmarks (1k/10k/100k entries) and for e2e.
 * Pure: no network, disk or database access; the same options always give the same session.
 *
 * Shape (modelled on the shared large-session fixture): turns of a user message, several
 * assistant rounds with text, occasional thinking and 1–3 tool calls (read/write/edit/bash
 * with `path`/`command` arguments), each followed by its tool results, then a closing
 * assistant text with stopReason "stop". Occasional aborted/error assistants,
 * thinking_level_change and model_change entries. Usage figures grow with the context and
 * look like prompt caching (cacheRead = previous context, cacheWrite = what was added).
 *
 * Tree (session-engine.md §1.6): v3 header, 8-hex unique ids, parent chains. Entries are generated in time
 * order; a side branch is made the way the app makes one: the leaf jumps back 1–3 turns
 * (optionally appending a branch_summary at the fork) and work continues there, so the last
 * entry in file order ends the current branch. Labels are label entries on the current path.
 * Compactions (optional) keep the last 1–2 turns. Cost is linear in `entries`.
 */
import { Rng } from "@/lib/random";
import { makePaths, makeTextPool, paragraph, sentence, userRequest } from "@/test/generators/text";
import {
  assistantChars,
  makeToolCall,
  makeToolResult,
  makeUsage,
  type ToolMaterial,
  ZERO_USAGE,
} from "@/test/generators/tools";
import { serializeSession } from "@/lib/session/file/jsonl";
import type { AssistantMessage, SessionEntry, SessionHeader, ToolCall } from "@/lib/session/types";
import { CURRENT_SESSION_VERSION } from "@/lib/session/types";

export interface GenerateSessionOptions {
  seed: number;
  /** Exact number of entries (header excluded). */
  entries: number;
  /** Side branches to create (each adds one leaf); fewer when the session is too short. */
  branches?: number;
  /** Insert compaction entries about every `entries / 5` entries (20–600). */
  compactions?: boolean;
  /** Label entries to add; every fourth one clears the previous label. */
  labels?: number;
  /** Epoch ms or ISO string of the header; default 2025-01-15T09:00:00Z. */
  startTime?: number | string;
  cwd?: string;
}

export interface GeneratedSession {
  header: SessionHeader;
  entries: SessionEntry[];
}

const DEFAULT_START = Date.UTC(2025, 0, 15, 9, 0, 0);
const MODELS = [
  { provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages" },
  { provider: "anthropic", model: "claude-opus-4-5", api: "anthropic-messages" },
  { provider: "openai", model: "gpt-5.1-codex", api: "openai-responses" },
] as const;
const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high"];
const LABELS = ["checkpoint", "before-refactor", "bug-repro", "tests-green", "wip"];

interface TurnStart {
  id: string;
  /** Cumulative context tokens on the path before this turn's user message. */
  cumBefore: number;
}
/** Generator state at the end of a turn, restored when a branch forks there. */
interface Snapshot {
  id: string;
  cum: number;
  base: number;
  lastPrompt: number;
  turnStarts: number;
  keepFloor: number;
  sinceCompaction: number;
  model: number;
}

const tok = (chars: number) => Math.ceil(chars / 4);

class Generator {
  readonly rng: Rng;
  readonly entries: SessionEntry[] = [];
  private readonly ids = new Set<string>();
  private readonly paths: string[];
  private readonly material: ToolMaterial;
  private leaf: string | null = null;
  private time: number;
  // Context accounting: ctx = cum - base; base grows when a compaction drops history.
  private cum = 0;
  private base = 0;
  private lastPrompt = 0;
  private model = 0;
  private turnStarts: TurnStart[] = [];
  private turnEnds: Snapshot[] = [];
  private keepFloor = 0;
  /** Entries appended on the current path since its last compaction. */
  sinceCompaction = 0;
  private toolCalls = 0;
  private lastLabelTarget: string | undefined;

  constructor(
    seed: number,
    readonly budget: number,
    startTime: number,
  ) {
    this.rng = Rng.seeded(seed);
    this.paths = makePaths(this.rng);
    this.material = { rng: this.rng, paths: this.paths, pool: makeTextPool(this.rng) };
    this.time = startTime;
  }

  get remaining(): number {
    return this.budget - this.entries.length;
  }

  private get ctx(): number {
    return this.cum - this.base;
  }

  private append(fields: Record<string, unknown> & { type: string }, advanceMs: number): SessionEntry {
    this.time += advanceMs;
    let id = this.rng.hex(8);
    while (this.ids.has(id)) id = this.rng.hex(8);
    this.ids.add(id);
    const entry = { id, parentId: this.leaf, timestamp: new Date(this.time).toISOString(), ...fields };
    this.entries.push(entry as unknown as SessionEntry);
    this.leaf = id;
    this.sinceCompaction++;
    return entry as unknown as SessionEntry;
  }

  private appendMessage(message: Record<string, unknown>, chars: number, advanceMs: number): SessionEntry {
    this.cum += tok(chars);
    return this.append({ type: "message", message: { ...message, timestamp: this.time + advanceMs } }, advanceMs);
  }

  settingsPreamble(): void {
    const m = MODELS[this.model]!;
    this.append({ type: "model_change", model: `${m.provider}/${m.model}` }, 10);
    this.append({ type: "thinking_level_change", thinkingLevel: "off" }, 5);
  }

  private assistant(content: AssistantMessage["content"], stopReason: string, extra: Record<string, unknown> = {}) {
    const chars = assistantChars(content);
    const m = MODELS[this.model]!;
    let usage = { ...ZERO_USAGE };
    if (stopReason !== "aborted") {
      usage = makeUsage(this.rng, this.ctx, this.lastPrompt, tok(chars));
      this.lastPrompt = this.ctx + tok(chars);
    }
    const message = { role: "assistant", content, api: m.api, provider: m.provider, model: m.model, usage, stopReason };
    return this.appendMessage({ ...message, ...extra }, chars, this.rng.int(1_500, 30_000));
  }

  private toolResult(call: ToolCall): void {
    const message = makeToolResult(this.material, call);
    this.appendMessage(message, message.content[0]!.text.length, this.rng.int(5, 2_000));
  }

  private closingAssistant(): void {
    const content: AssistantMessage["content"] = [];
    if (this.rng.chance(0.15)) content.push({ type: "thinking", thinking: paragraph(this.rng, 2) });
    content.push({ type: "text", text: paragraph(this.rng, this.rng.int(1, 5)) });
    this.assistant(content, "stop");
  }

  turn(): void {
    const rng = this.rng;
    if (this.remaining > 3 && rng.chance(0.08)) {
      this.append({ type: "thinking_level_change", thinkingLevel: rng.pick(THINKING_LEVELS) }, rng.int(500, 5_000));
    }
    if (this.remaining > 3 && rng.chance(0.01)) {
      this.model = (this.model + 1) % MODELS.length;
      const m = MODELS[this.model]!;
      this.append({ type: "model_change", model: `${m.provider}/${m.model}` }, rng.int(500, 5_000));
    }
    const text = userRequest(rng, rng.pick(this.paths));
    const cumBefore = this.cum;
    const user = this.appendMessage({ role: "user", content: [{ type: "text", text }] }, text.length, rng.int(5_000, 120_000));
    this.turnStarts.push({ id: user.id, cumBefore });
    const rounds = rng.chance(0.1) ? rng.int(6, 20) : rng.int(0, 5);
    for (let round = 0; this.remaining > 0; round++) {
      if (this.remaining <= 1 || round >= rounds) {
        this.closingAssistant();
        break;
      }
      if (rng.chance(0.03)) {
        this.assistant([], "aborted", { errorMessage: "Request was aborted" });
        break;
      }
      if (rng.chance(0.004)) {
        this.assistant([{ type: "text", text: sentence(rng) }], "error", { errorMessage: "Overloaded" });
        break;
      }
      const calls = Math.min(rng.chance(0.8) ? 1 : rng.int(2, 3), this.remaining - 2);
      if (calls <= 0) {
        this.closingAssistant();
        break;
      }
      const content: AssistantMessage["content"] = [];
      if (rng.chance(0.1)) content.push({ type: "thinking", thinking: sentence(rng) });
      if (rng.chance(0.55)) content.push({ type: "text", text: sentence(rng) });
      const toolCalls = Array.from({ length: calls }, () => makeToolCall(this.material, this.toolCalls++));
      this.assistant([...content, ...toolCalls], "toolUse");
      for (const call of toolCalls) this.toolResult(call);
    }
    this.turnEnds.push({
      id: this.leaf!,
      cum: this.cum,
      base: this.base,
      lastPrompt: this.lastPrompt,
      turnStarts: this.turnStarts.length,
      keepFloor: this.keepFloor,
      sinceCompaction: this.sinceCompaction,
      model: this.model,
    });
  }

  /** Jump back 1–3 turns; what followed becomes an abandoned side branch. */
  branch(): boolean {
    if (this.turnEnds.length < 2 || this.remaining < 4) return false;
    const back = this.rng.int(1, Math.min(3, this.turnEnds.length - 1));
    const fork = this.turnEnds[this.turnEnds.length - 1 - back]!;
    this.turnEnds.length -= back;
    this.turnStarts.length = fork.turnStarts;
    ({ cum: this.cum, base: this.base, lastPrompt: this.lastPrompt, keepFloor: this.keepFloor } = fork);
    ({ sinceCompaction: this.sinceCompaction, model: this.model } = fork);
    this.leaf = fork.id;
    if (this.rng.chance(0.5)) {
      const summary = `## Goal\n${sentence(this.rng)}\n\n## Progress\n- [x] ${sentence(this.rng)}`;
      const details = { readFiles: [this.rng.pick(this.paths)], modifiedFiles: [this.rng.pick(this.paths)] };
      this.cum += tok(summary.length);
      this.append({ type: "branch_summary", fromId: fork.id, summary, details }, this.rng.int(2_000, 20_000));
    }
    return true;
  }

  /** Compaction keeping the last 1–2 turns; only when something older can be summarized. */
  compact(): boolean {
    const keepIdx = this.turnStarts.length - this.rng.int(1, 2);
    if (keepIdx <= this.keepFloor || this.remaining < 2) return false;
    const first = this.turnStarts[keepIdx]!;
    const summary = `## Goal\n${sentence(this.rng)}\n\n## Progress\n### Done\n- [x] ${paragraph(this.rng, 3)}`;
    const details = { readFiles: [this.rng.pick(this.paths)], modifiedFiles: [this.rng.pick(this.paths)] };
    const tokensBefore = this.lastPrompt;
    this.append(
      { type: "compaction", summary, firstKeptEntryId: first.id, tokensBefore, details },
      this.rng.int(10_000, 40_000),
    );
    this.base = first.cumBefore - tok(summary.length);
    this.keepFloor = keepIdx;
    this.sinceCompaction = 0;
    return true;
  }

  get hasTurns(): boolean {
    return this.turnStarts.length > 0;
  }

  /** A label on a user message of the current path; every fourth clears the previous one. */
  label(n: number): void {
    const clears = n % 4 === 3 && this.lastLabelTarget !== undefined;
    const targetId = clears ? this.lastLabelTarget! : this.rng.pick(this.turnStarts).id;
    const label = clears ? undefined : `${this.rng.pick(LABELS)}-${n + 1}`;
    this.lastLabelTarget = targetId;
    this.append({ type: "label", targetId, label }, this.rng.int(500, 5_000));
  }
}

function startMs(start: number | string | undefined): number {
  if (start === undefined) return DEFAULT_START;
  const t = typeof start === "number" ? start : Date.parse(start);
  if (Number.isNaN(t)) throw new Error(`Invalid startTime: ${String(start)}`);
  return t;
}

/** A deterministic synthetic session with exactly `opts.entries` entries. */
export function generateSession(opts: GenerateSessionOptions): GeneratedSession {
  const total = Math.max(0, Math.floor(opts.entries));
  const start = startMs(opts.startTime);
  const gen = new Generator(opts.seed, total, start + 1_000);
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: gen.rng.uuid(),
    timestamp: new Date(start).toISOString(),
    cwd: opts.cwd ?? "/home/dev/project",
  };
  const branches = Math.max(0, opts.branches ?? 0);
  const labels = Math.max(0, opts.labels ?? 0);
  const compactEvery = Math.min(600, Math.max(20, Math.floor(total / 5)));
  let branched = 0;
  let labelled = 0;
  if (total >= 6) gen.settingsPreamble();
  while (gen.remaining > 0) {
    const done = gen.entries.length;
    if (branched < branches && done >= Math.floor(((branched + 1) * total) / (branches + 1)) && gen.branch()) {
      branched++;
    }
    if (labelled < labels && gen.hasTurns && gen.remaining > 2) {
      if (done >= Math.floor(((labelled + 1) * total) / (labels + 1))) gen.label(labelled++);
    }
    if (opts.compactions && gen.sinceCompaction >= compactEvery) gen.compact();
    if (gen.remaining > 0) gen.turn();
  }
  return { header, entries: gen.entries };
}

/** `generateSession` serialized as a JSONL session file (header line first, trailing "\n"). */
export function generateSessionJsonl(opts: GenerateSessionOptions): string {
  const { header, entries } = generateSession(opts);
  return serializeSession(header, entries);
}
