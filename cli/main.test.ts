/**
 * CLI behaviour, run in-process through runCli (fast); cli/process.test.ts runs the real
 * binary for the process-level guarantees (exit codes, stdout holding one JSON document).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { readSessionFile } from "@/cli/session-file";
import { runInProcess, tempDir } from "@/test/cli-helpers";
import { generateSession, generateSessionJsonl } from "@/test/generators/session";
import { serializeSession } from "@/lib/session/file/jsonl";
import type { SessionEntry } from "@/lib/session/types";
import { FIXTURES_SKIP_REASON, hasFixtures, LARGE_SESSION } from "@/test/fixtures";

const quiet = { out() {}, err() {} };

/** Root-first path to `leafId` (default: the last entry), by parent links. */
function pathOf(entries: SessionEntry[], leafId = entries.at(-1)?.id): SessionEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const path: SessionEntry[] = [];
  for (let e = leafId ? byId.get(leafId) : undefined; e; e = e.parentId ? byId.get(e.parentId) : undefined) {
    path.push(e);
  }
  return path.reverse();
}

const yieldsMessage = (e: SessionEntry) =>
  e.type === "message" || e.type === "custom_message" || e.type === "branch_summary";

const roleOf = (e: SessionEntry | undefined) =>
  e?.type === "message" ? (e.message as { role: string }).role : undefined;

async function json(argv: string[]) {
  const r = await runInProcess([...argv, "--json"]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
}

const files: Record<string, string> = {};
const basic = generateSession({ seed: 11, entries: 400, branches: 2, labels: 3 });

beforeAll(() => {
  const t = tempDir();
  files.basic = t.write("basic.jsonl", serializeSession(basic.header, basic.entries));
  files.big = t.write("big.jsonl", generateSessionJsonl({ seed: 12, entries: 3000 }));
  files.compacted = t.write("compacted.jsonl", generateSessionJsonl({ seed: 13, entries: 1500, compactions: true }));
  const last = basic.entries.at(-1)!;
  const compaction = {
    type: "compaction",
    id: "c0ffee00",
    parentId: last.id,
    timestamp: "2030-01-01T00:00:00.000Z",
    summary: "S",
    firstKeptEntryId: last.id,
    tokensBefore: 5000,
  };
  files.already = t.write("already.jsonl", `${serializeSession(basic.header, basic.entries)}${JSON.stringify(compaction)}\n`);
  files.empty = t.write("empty.jsonl", `${JSON.stringify(basic.header)}\n`);
  const lines = serializeSession(basic.header, basic.entries).split("\n");
  lines.splice(2, 0, "this is not json");
  lines.splice(4, 0, "[1, 2]");
  files.malformed = t.write("malformed.jsonl", lines.join("\n"));
  files.notSession = t.write("not-session.jsonl", '{"type":"message","id":"x"}\n');
  files.missing = `${t.dir}/missing.jsonl`;
  files.future = t.write("future.jsonl", serializeSession({ ...basic.header, version: 99 }, basic.entries));
});

describe("help", () => {
  it("lists every command, including import and export", async () => {
    for (const argv of [["help"], ["--help"]]) {
      const r = await runInProcess(argv);
      expect(r.code).toBe(0);
      for (const name of ["context", "cut-point", "plan", "prune", "tree", "import", "export"]) {
        expect(r.out).toContain(`  ${name} `);
      }
      expect(r.out).toContain("--keep-recent-tokens N");
    }
    const one = await runInProcess(["plan", "--help"]);
    expect(one.out.split("\n")[0]).toBe(
      "plan FILE [--leaf ID] [--keep-recent-tokens N] [--reserve-tokens N] [--prune] [--json]",
    );
  });
});

describe("errors: one line on stderr, exit 2", () => {
  const cases: [string, () => string[], string][] = [
    ["missing file", () => ["tree", files.missing!], "missing.jsonl: no such file"],
    ["not a session", () => ["context", files.notSession!], "not-session.jsonl:1: not a session file"],
    ["unknown option", () => ["plan", files.basic!, "--frobnicate"], "unknown option --frobnicate"],
    ["unknown --leaf", () => ["context", files.basic!, "--leaf", "nope1234"], 'no entry with id "nope1234"'],
    ["missing required option", () => ["cut-point", files.basic!], "missing required option --keep-recent-tokens"],
    ["unknown command", () => ["frob"], 'unknown command "frob"'],
    // The words the import uses for it (lib/db/import-parse.ts checkVersion), for every command.
    ["a future version (context)", () => ["context", files.future!], "future.jsonl:1: unsupported session version 99 (Arbor reads versions 1 to 3)"],
    ["a future version (plan)", () => ["plan", files.future!], "future.jsonl:1: unsupported session version 99 (Arbor reads versions 1 to 3)"],
  ];
  it.each(cases)("%s", async (_name, argv, message) => {
    const r = await runInProcess(argv());
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err.trimEnd().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/^error: /);
    expect(r.err).toContain(message);
  });

  it("malformed lines are reported as file:line: reason and the command still runs", async () => {
    const r = await runInProcess(["prune", files.malformed!, "--json"]);
    expect(r.code).toBe(0);
    const reports = r.err.trimEnd().split("\n");
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatch(new RegExp(`^${files.malformed}:3: invalid JSON`));
    expect(reports[1]).toBe(`${files.malformed}:5: not a JSON object (got an array)`);
    expect(JSON.parse(r.out)).toMatchObject({ prunedCount: 0 });
  });
});

describe("context", () => {
  it("gives { messages, thinkingLevel, models } of the branch to the last entry", async () => {
    const ctx = await json(["context", files.basic!]);
    expect(Object.keys(ctx).sort()).toEqual(["messages", "models", "thinkingLevel"]);
    const expected = pathOf(basic.entries).filter((e) => e.type === "message" || e.type === "branch_summary");
    expect(ctx.messages).toHaveLength(expected.length);
    expect(ctx.models.default).toMatch(/\//);
  });

  it("--leaf picks another branch point", async () => {
    const firstUser = basic.entries.find((e) => roleOf(e) === "user")!;
    const ctx = await json(["context", files.basic!, "--leaf", firstUser.id]);
    expect(ctx.messages).toEqual([(firstUser as { message: unknown }).message]);
  });

  it("--llm converts to user/assistant/toolResult messages only", async () => {
    const ctx = await json(["context", files.compacted!, "--llm"]);
    const roles = new Set(ctx.messages.map((m: { role: string }) => m.role));
    expect([...roles].sort()).toEqual(["assistant", "toolResult", "user"]);
    // The compaction summary arrives as a wrapped user message (session-engine.md §3, §17.5).
    expect(JSON.stringify(ctx.messages[0])).toContain("<summary>");
  });

  it("prints readable text without --json", async () => {
    const r = await runInProcess(["context", files.basic!]);
    expect(r.out).toMatch(/^leaf: [0-9a-f]{8}\nthinkingLevel: \w+\nmodels: default=/);
    expect(r.out).toMatch(/\n#0 user: /);
  });
});

describe("cut-point", () => {
  it("runs over all entries and never lands on a toolResult", async () => {
    for (const keep of [0, 500, 5_000, 20_000, 10_000_000]) {
      const cut = await json(["cut-point", files.basic!, "--keep-recent-tokens", String(keep)]);
      expect(Object.keys(cut).sort()).toEqual(["firstKeptEntryIndex", "isSplitTurn", "turnStartIndex"]);
      expect(roleOf(basic.entries[cut.firstKeptEntryIndex])).not.toBe("toolResult");
      if (cut.isSplitTurn) expect(cut.turnStartIndex).toBeLessThanOrEqual(cut.firstKeptEntryIndex);
    }
  });
});

describe("plan", () => {
  it("counts add up to the messages after the last compaction, indices map to the file", async () => {
    for (const name of ["basic", "big", "compacted"]) {
      const file = files[name]!;
      const plan = await json(["plan", file, "--keep-recent-tokens", "3000"]);
      const { entries } = readSessionFile(file, quiet);
      const path = pathOf(entries);
      const lastCompaction = path.map((e) => e.type).lastIndexOf("compaction");
      const messages = path.slice(lastCompaction + 1).filter(yieldsMessage).length;
      expect(plan.messagesToSummarize + plan.turnPrefixMessages + plan.recentMessages).toBe(messages);
      expect(entries[plan.firstKeptEntryIndex]?.id).toBe(plan.firstKeptEntryId);
      expect(plan.hasPreviousSummary).toBe(lastCompaction >= 0);
      expect(plan.keepRecentTokens).toBeLessThanOrEqual(3000);
      expect(plan.keepRecentTokens).toBeGreaterThanOrEqual(1);
      if (plan.isSplitTurn) expect(plan.turnStartIndex).toBeLessThan(plan.firstKeptEntryIndex);
      else expect(plan.turnStartIndex).toBe(-1);
    }
  });

  it("reports why there is nothing to compact", async () => {
    expect(await json(["plan", files.already!])).toEqual({ plan: null, reason: "Already compacted" });
    expect(await json(["plan", files.empty!])).toEqual({
      plan: null,
      reason: "Nothing to compact (session too small)",
    });
  });

  it("--leaf plans the chosen branch; --prune runs first", async () => {
    const side = basic.entries.find((e, i) => i > 0 && e.parentId !== basic.entries[i - 1]!.id)!;
    const plan = await json(["plan", files.basic!, "--leaf", side.parentId!]);
    const path = pathOf(basic.entries, side.parentId!);
    expect(plan.messagesToSummarize + plan.turnPrefixMessages + plan.recentMessages).toBe(
      path.filter(yieldsMessage).length,
    );
    const pruned = await runInProcess(["plan", files.big!, "--prune"]);
    expect(pruned.out).toMatch(/^pruned: [1-9]\d* tool results, \d+ tokens saved\n/);
  });
});

describe("prune", () => {
  it("reports pruned tool results as file indices, oldest first, never protected tools", async () => {
    const r = await json(["prune", files.big!]);
    const { entries } = readSessionFile(files.big!, quiet);
    expect(r.prunedCount).toBeGreaterThan(0);
    expect(r.prunedIndices).toHaveLength(r.prunedCount);
    expect(r.tokensSaved).toBeGreaterThanOrEqual(20_000);
    expect([...r.prunedIndices].sort((a: number, b: number) => a - b)).toEqual(r.prunedIndices);
    for (const i of r.prunedIndices) {
      expect(roleOf(entries[i])).toBe("toolResult");
      expect((entries[i] as { message: { toolName: string } }).message.toolName).not.toBe("read");
    }
  });
});

describe("tree", () => {
  const rowsOf = (out: string) => out.trimEnd().split("\n").slice(0, -1);

  it("marks the active path with * and the leaf with @", async () => {
    const r = await runInProcess(["tree", files.basic!, "--filter", "all"]);
    expect(r.code).toBe(0);
    const rows = rowsOf(r.out);
    const marked = rows.filter((l) => l.startsWith("* ") || l.startsWith("@ ")).map((l) => l.slice(2, 10));
    const path = pathOf(basic.entries).map((e) => e.id);
    const shown = new Set(rows.map((l) => l.slice(2, 10)));
    expect(marked).toEqual(path.filter((id) => shown.has(id)));
    expect(rows.filter((l) => l.startsWith("@ ")).map((l) => l.slice(2, 10))).toEqual([basic.entries.at(-1)!.id]);
    // Side branches exist: some rows are off the path (unmarked) and indented (session-engine.md §16.1).
    expect(rows.some((l) => l.startsWith("  "))).toBe(true);
    expect(rows.some((l) => l.slice(11).startsWith("  "))).toBe(true);
    expect(r.out.trimEnd().split("\n").at(-1)).toMatch(/^\(\d+\/\d+\) \[all\]$/);
  });

  it("--leaf moves the marks; --filter user-only shows users only; labels prefix rows", async () => {
    const firstUser = basic.entries.find((e) => roleOf(e) === "user")!;
    const r = await runInProcess(["tree", files.basic!, "--leaf", firstUser.id]);
    expect(rowsOf(r.out).find((l) => l.startsWith("@ "))).toContain(firstUser.id);
    const users = rowsOf((await runInProcess(["tree", files.basic!, "--filter", "user-only"])).out);
    expect(users.every((l) => /^[*@ ] [0-9a-f]{8} +(\[[^\]]+\] )?user: /.test(l))).toBe(true);
    const labelled = rowsOf((await runInProcess(["tree", files.basic!, "--filter", "labeled-only"])).out);
    expect(labelled.length).toBeGreaterThan(0);
    expect(labelled.every((l) => /^[*@ ] [0-9a-f]{8} +\[[^\]]+\] /.test(l))).toBe(true);
  });

  it("empty results", async () => {
    expect((await runInProcess(["tree", files.empty!])).out).toBe("No entries in session\n(0/0)\n");
    const none = await runInProcess(["tree", files.basic!, "--search", "zzzz-no-such-text"]);
    expect(none.out).toBe("No entries found\n(0/0)\n");
  });
});

describe.skipIf(!hasFixtures)(`the real fixture (${hasFixtures ? "present" : FIXTURES_SKIP_REASON})`, () => {
  it("cut-point never lands on a toolResult", async () => {
    const { entries } = readSessionFile(LARGE_SESSION, quiet);
    for (const keep of [100, 2_000, 20_000, 60_000]) {
      const cut = await json(["cut-point", LARGE_SESSION, "--keep-recent-tokens", String(keep)]);
      expect(roleOf(entries[cut.firstKeptEntryIndex])).not.toBe("toolResult");
    }
  });

  it("v1 ids are stable across loads, so --leaf works with ids printed by tree", async () => {
    const a = readSessionFile(LARGE_SESSION, quiet).entries.map((e) => e.id);
    const b = readSessionFile(LARGE_SESSION, quiet).entries.map((e) => e.id);
    expect(b).toEqual(a);
    expect(new Set(a).size).toBe(a.length);
    const ctx = await json(["context", LARGE_SESSION, "--leaf", a[10]!]);
    expect(ctx.messages.length).toBeGreaterThan(0);
    expect(ctx.messages.length).toBeLessThanOrEqual(11);
  });

  it("plan counts add up over the whole linear v1 file", async () => {
    const plan = await json(["plan", LARGE_SESSION]);
    const { entries } = readSessionFile(LARGE_SESSION, quiet);
    expect(plan.messagesToSummarize + plan.turnPrefixMessages + plan.recentMessages).toBe(
      entries.filter(yieldsMessage).length,
    );
    expect(entries[plan.firstKeptEntryIndex]?.id).toBe(plan.firstKeptEntryId);
    expect(plan.tokensBefore).toBeGreaterThan(0);
  });

  it("tree marks the whole linear file as the active path", async () => {
    const r = await runInProcess(["tree", LARGE_SESSION]);
    const rows = r.out.trimEnd().split("\n").slice(0, -1);
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.slice(0, -1).every((l) => l.startsWith("* "))).toBe(true);
    expect(rows.at(-1)).toMatch(/^@ /);
  });
});
