import { describe, expect, it } from "vitest";
import { createRng, Rng } from "@/lib/random";
import { generateSession, generateSessionJsonl } from "@/test/generators/session";
import { loadSession } from "@/lib/session/file/load";
import type { AssistantMessage, MessageEntry, SessionEntry, ToolResultMessage } from "@/lib/session/types";

const roleOf = (e: SessionEntry) => (e.type === "message" ? (e as MessageEntry).message.role : undefined);

function byIdOf(entries: SessionEntry[]): Map<string, SessionEntry> {
  return new Map(entries.map((e) => [e.id, e]));
}

/** Ancestor ids of `e` (excluding itself), nearest first. */
function ancestors(e: SessionEntry, byId: Map<string, SessionEntry>): string[] {
  const out: string[] = [];
  for (let p = e.parentId; p !== null; p = byId.get(p)?.parentId ?? null) out.push(p);
  return out;
}

describe("seeded PRNG", () => {
  it("is deterministic per seed and stays in [0, 1)", () => {
    const a = createRng(7);
    const b = createRng(7);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(createRng(8)()).not.toBe(xs[0]);
    const rng = Rng.seeded(1);
    const ints = Array.from({ length: 500 }, () => rng.int(2, 4));
    expect(new Set(ints)).toEqual(new Set([2, 3, 4]));
  });
});

describe("generateSession (session-engine.md §1.2–1.6 shapes)", () => {
  const opts = { seed: 42, entries: 1500, branches: 3, compactions: true, labels: 5 };
  const session = generateSession(opts);
  const { header, entries } = session;
  const byId = byIdOf(entries);

  it("is deterministic for a seed and differs across seeds", () => {
    expect(JSON.stringify(generateSession(opts))).toBe(JSON.stringify(session));
    expect(generateSessionJsonl({ ...opts, seed: 43 })).not.toBe(generateSessionJsonl(opts));
  });

  it("writes a v3 header and exactly the requested number of entries", () => {
    expect(header).toMatchObject({ type: "session", version: 3, cwd: "/home/dev/project" });
    expect(header.timestamp).toBe("2025-01-15T09:00:00.000Z");
    expect(entries).toHaveLength(1500);
    for (const n of [0, 1, 2, 5, 17]) expect(generateSession({ seed: n, entries: n }).entries).toHaveLength(n);
    const later = generateSession({ seed: 1, entries: 3, startTime: "2030-02-03T04:05:06.000Z" });
    expect(later.header.timestamp).toBe("2030-02-03T04:05:06.000Z");
  });

  it("ids are unique 8-hex strings; parents precede children; time only moves forward", () => {
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    expect(entries.every((e) => /^[0-9a-f]{8}$/.test(e.id))).toBe(true);
    const seen = new Set<string>();
    entries.forEach((e, i) => {
      if (i === 0) expect(e.parentId).toBeNull();
      else expect(seen.has(e.parentId ?? "")).toBe(true);
      seen.add(e.id);
      if (i > 0) expect(Date.parse(e.timestamp)).toBeGreaterThan(Date.parse(entries[i - 1]!.timestamp));
    });
  });

  it("every tool result follows its call: the parent is its assistant or a sibling result", () => {
    let results = 0;
    for (const e of entries) {
      if (roleOf(e) !== "toolResult") continue;
      results++;
      const msg = (e as MessageEntry).message as ToolResultMessage;
      let p = byId.get(e.parentId!)!;
      while (roleOf(p) === "toolResult") p = byId.get(p.parentId!)!;
      expect(roleOf(p)).toBe("assistant");
      const call = ((p as MessageEntry).message as AssistantMessage).content.find(
        (b) => b.type === "toolCall" && b.id === msg.toolCallId,
      );
      expect(call).toMatchObject({ name: msg.toolName });
    }
    expect(results).toBeGreaterThan(0);
  });

  it("has a realistic role mix and tool arguments", () => {
    const count = (role: string) => entries.filter((e) => roleOf(e) === role).length;
    const users = count("user");
    const assistants = count("assistant");
    const results = count("toolResult");
    expect(users).toBeGreaterThan(entries.length * 0.05);
    expect(assistants).toBeGreaterThan(users * 2);
    expect(results).toBeGreaterThan(users * 2);
    const calls = entries.flatMap((e) =>
      roleOf(e) === "assistant"
        ? ((e as MessageEntry).message as AssistantMessage).content.filter((b) => b.type === "toolCall")
        : [],
    );
    expect(new Set(calls.map((c) => c.name))).toEqual(new Set(["read", "write", "edit", "bash"]));
    for (const c of calls) {
      const key = c.name === "bash" ? "command" : "path";
      expect(typeof c.arguments[key]).toBe("string");
    }
    expect(entries.some((e) => e.type === "thinking_level_change")).toBe(true);
    expect(entries.some((e) => e.type === "model_change")).toBe(true);
  });

  it("usage is self-consistent and grows with the context", () => {
    const plain = generateSession({ seed: 5, entries: 400 }).entries;
    const usages = plain
      .filter((e) => roleOf(e) === "assistant")
      .map((e) => ((e as MessageEntry).message as AssistantMessage).usage)
      .filter((u) => (u.totalTokens ?? 0) > 0);
    for (const u of usages) expect(u.totalTokens).toBe(u.input + u.output + u.cacheRead + u.cacheWrite);
    expect(usages.at(-1)!.totalTokens!).toBeGreaterThan(usages[0]!.totalTokens! * 5);
  });

  it("creates the requested side branches: one extra leaf each, current branch last", () => {
    const parents = new Set(entries.map((e) => e.parentId));
    const leaves = entries.filter((e) => !parents.has(e.id));
    expect(leaves).toHaveLength(4);
    expect(leaves.at(-1)).toBe(entries.at(-1));
    expect(entries.some((e) => e.type === "branch_summary")).toBe(true);
    for (const e of entries.filter((x) => x.type === "branch_summary")) expect(e.fromId).toBe(e.parentId);
  });

  it("compactions keep from a user message that is an ancestor of the compaction", () => {
    const compactions = entries.filter((e) => e.type === "compaction");
    expect(compactions.length).toBeGreaterThan(1);
    for (const c of compactions) {
      const kept = byId.get(String(c.firstKeptEntryId))!;
      expect(roleOf(kept)).toBe("user");
      expect(ancestors(c, byId)).toContain(kept.id);
      expect(c.tokensBefore).toBeGreaterThan(0);
    }
  });

  it("labels target existing entries; the fourth one clears a label", () => {
    const labels = entries.filter((e) => e.type === "label");
    expect(labels).toHaveLength(5);
    for (const l of labels) expect(byId.has(String(l.targetId))).toBe(true);
    expect(labels.filter((l) => l.label === undefined)).toHaveLength(1);
  });

  it("round-trips through the JSONL loader unchanged and unmigrated", () => {
    const loaded = loadSession(generateSessionJsonl(opts));
    expect(loaded.skipped).toEqual([]);
    expect(loaded.migrated).toBe(false);
    expect(loaded.entries).toEqual(JSON.parse(JSON.stringify(entries)));
    expect(loaded.tree.getLeafId()).toBe(entries.at(-1)!.id);
  });

  it("generates 100,000 entries quickly", () => {
    const started = performance.now();
    const big = generateSession({ seed: 9, entries: 100_000, branches: 10, compactions: true, labels: 10 });
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(big.entries).toHaveLength(100_000);
  });
});
